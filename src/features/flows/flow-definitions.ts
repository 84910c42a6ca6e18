import type { FlowDefinition } from './flow-types.ts';
import { PAYOUT_CHECK_PAY, PREAUTH_CAPTURE_RETURN } from './flows-settle.ts';
import { CARD_REF_REBILL, RECURRING_PAYMENT } from './flows-stored-card.ts';
import { SALE_3DS_1, SALE_3DS_2 } from './flows-three-d-secure.ts';

/** The guided flows, in the order the page lists them (each group of definitions in a file of its own). */
export const FLOWS: readonly FlowDefinition[] = [
  PREAUTH_CAPTURE_RETURN,
  SALE_3DS_1,
  SALE_3DS_2,
  PAYOUT_CHECK_PAY,
  CARD_REF_REBILL,
  RECURRING_PAYMENT,
];

export function findFlow(id: string): FlowDefinition | undefined {
  return FLOWS.find((f) => f.id === id);
}
