import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core over the page as it stands (WCAG 2.2 AA and best practice), and one h1. */
export async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const found = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
        .join('\n')}`,
  );
  expect(found, `axe-core violations on ${what}`).toEqual([]);
  // One h1 per page; landmarks of one kind have distinct names.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
}
