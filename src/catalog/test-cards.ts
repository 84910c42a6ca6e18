/**
 * The sandbox's test data, one copy for the local sandbox (which applies it), the console's "Fill
 * with test data" and the docs (sandbox/README.md is checked against it). Source: gateway-notes.md,
 * Sandbox behaviour.
 */
import type { ErrorReason } from './error-codes.ts';

/** The test card of the official examples; any future expiry. */
export const TEST_CARD = {
  number: '4444444444444448',
  display: '4444 4444 4444 4448',
  brand: 'Visa',
} as const;

/** The password that authenticates on the sandbox's 3-D Secure issuer page. */
export const THREE_DS_PASSWORD = 'hint';

export type CvvOutcomeKind = 'approved' | 'three-d-secure' | 'unknown' | 'declined';

export interface CvvOutcomeSpec {
  /** The CVVs that pick this outcome; the first is the one the console offers. */
  cvvs: readonly string[];
  kind: CvvOutcomeKind;
  /** The decline's `error-code` (its number is in src/catalog/error-codes.ts) and `error-message`. */
  errorCode?: ErrorReason;
  errorMessage?: string;
  /** Short label for the console's outcome picker. */
  label: string;
  /** The sentence of the docs' table. */
  docs: string;
}

/** The CVV picks the outcome. Order is the docs' and the console's. */
export const CVV_OUTCOMES: readonly CvvOutcomeSpec[] = [
  { cvvs: ['123', '1234'], kind: 'approved', label: 'Approved', docs: 'approved' },
  {
    cvvs: ['321'],
    kind: 'three-d-secure',
    label: `3-D Secure challenge (password: ${THREE_DS_PASSWORD})`,
    docs: `3-D Secure challenge (sale, preauth, their forms); password \`${THREE_DS_PASSWORD}\``,
  },
  {
    cvvs: ['111'],
    kind: 'approved',
    label: 'Approved without 3-D Secure',
    docs: 'approved without 3-D Secure',
  },
  {
    cvvs: ['217'],
    kind: 'unknown',
    label: 'Unknown (stays non-final)',
    docs: '`unknown`, and it stays so (non-final, no callback)',
  },
  {
    cvvs: ['101'],
    kind: 'declined',
    errorCode: 'EXPIRED_CARD',
    errorMessage: 'Declined: expired card',
    label: 'Declined: expired card',
    docs: 'declined, `EXPIRED_CARD`',
  },
  {
    cvvs: ['116'],
    kind: 'declined',
    errorCode: 'INSUFFICIENT_FUNDS',
    errorMessage: 'Declined: insufficient funds',
    label: 'Declined: insufficient funds',
    docs: 'declined, `INSUFFICIENT_FUNDS`',
  },
  {
    cvvs: ['119'],
    kind: 'declined',
    errorCode: 'NOT_PERMITTED',
    errorMessage: 'Declined: transaction not permitted to the cardholder',
    label: 'Declined: not permitted',
    docs: 'declined, `NOT_PERMITTED`',
  },
  {
    cvvs: ['209'],
    kind: 'declined',
    errorCode: 'STOLEN_CARD',
    errorMessage: 'Declined: stolen card, pick up',
    label: 'Declined: stolen card',
    docs: 'declined, `STOLEN_CARD`',
  },
];

const APPROVING = CVV_OUTCOMES.filter((o) => o.kind !== 'declined' && o.kind !== 'unknown').flatMap(
  (o) => o.cvvs,
);

/** Any CVV not in {@link CVV_OUTCOMES}. */
export const OTHER_CVV_OUTCOME: CvvOutcomeSpec = {
  cvvs: [],
  kind: 'declined',
  errorCode: 'DECLINED',
  errorMessage: `Declined by the issuer (sandbox: this CVV is not one of the approving test values ${APPROVING.join(', ')})`,
  label: 'Declined',
  docs: 'declined, `DECLINED`',
};

/** The outcome a CVV picks; no CVV at all approves (rebills, stored cards). */
export function cvvOutcomeSpec(cvv: string | undefined): CvvOutcomeSpec {
  if (cvv === undefined || cvv === '') return CVV_OUTCOMES[0]!;
  return CVV_OUTCOMES.find((o) => o.cvvs.includes(cvv)) ?? OTHER_CVV_OUTCOME;
}

/** The docs' CVV table (markdown), as sandbox/README.md prints it. */
export function renderCvvTable(): string {
  const rows = [
    ...CVV_OUTCOMES.map((o) => [o.cvvs.map((c) => `\`${c}\``).join(', '), o.docs] as const),
    ['anything else', OTHER_CVV_OUTCOME.docs] as const,
  ];
  const w0 = Math.max('CVV'.length, ...rows.map((r) => r[0].length));
  const w1 = Math.max('Outcome'.length, ...rows.map((r) => r[1].length));
  const line = (a: string, b: string) => `| ${a.padEnd(w0)} | ${b.padEnd(w1)} |`;
  return [
    line('CVV', 'Outcome'),
    `| ${'-'.repeat(w0)} | ${'-'.repeat(w1)} |`,
    ...rows.map((r) => line(r[0], r[1])),
  ].join('\n');
}
