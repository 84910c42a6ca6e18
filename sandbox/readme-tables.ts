import {
  findOperation,
  OPERATIONS,
  renderCvvTable,
  TEST_CARD,
  type OperationId,
} from '../src/catalog/index.ts';
import { renderErrorCodeTable } from '../src/catalog/error-codes.ts';
import { renderSettlementTable } from './engine/settlement.ts';

/**
 * The parts of sandbox/README.md printed from the tables the sandbox runs on (the catalog's CVV
 * outcomes and test card and its error codes, the engine's settlement rules). `npm run docs:sandbox` rewrites them;
 * test/sandbox/readme.test.ts fails when the README and the tables differ.
 */
export const README_SECTIONS: Readonly<Record<string, () => string>> = {
  'cvv-outcomes': () =>
    `Test card: \`${TEST_CARD.display}\` (${TEST_CARD.brand}), any future expiry; any other Luhn-valid number works too.\n\n${renderCvvTable()}`,
  'error-codes': () => renderErrorCodeTable(),
  'settlement-rules': () =>
    renderSettlementTable((id: OperationId) => {
      const op = OPERATIONS.find((o) => o.id === id) ?? findOperation(id);
      return op ? op.path : id;
    }),
};

const marker = (name: string, end: boolean) => `<!-- ${end ? '/' : ''}generated:${name} -->`;

/** The README with every generated section replaced by the tables' current text. */
export function renderReadme(text: string): string {
  let out = text;
  for (const [name, render] of Object.entries(README_SECTIONS)) {
    const begin = marker(name, false);
    const end = marker(name, true);
    const a = out.indexOf(begin);
    const b = out.indexOf(end);
    if (a < 0 || b < a) throw new Error(`sandbox/README.md has no ${begin} … ${end} section.`);
    out = `${out.slice(0, a + begin.length)}\n\n${render()}\n\n${out.slice(b)}`;
  }
  return out;
}
