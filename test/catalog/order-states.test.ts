/**
 * Issue 29 §3: the order's follow-up states and the full-amount operations are catalog tables keyed
 * by operation path. A misspelt path fails `tsc` (the @ts-expect-error lines break the typecheck if
 * the key type ever widens to string), and every key is an operation of the catalog.
 */
import { describe, expect, it } from 'vitest';
import { findOperation, type OperationPath } from '../../src/catalog/index.ts';
import {
  FOLLOW_UP_STATES,
  followUpStates,
  FULL_AMOUNT_OPTIONAL,
  fullAmountOptional,
  type OrderState,
} from '../../src/catalog/order-states.ts';

type FollowUpTable = Partial<Record<OperationPath, readonly OrderState[]>>;

describe('the order tables of the catalog', () => {
  it('a misspelt follow-up key or state does not compile', () => {
    const table: FollowUpTable = {
      'v2/capture': ['approved'],
      // @ts-expect-error 'v2/captur' is no operation path.
      'v2/captur': ['approved'],
    };
    // @ts-expect-error 'aproved' is no order state.
    const states: FollowUpTable = { 'v2/void': ['aproved'] };
    expect(Object.keys(table)).toHaveLength(2);
    expect(states).toBeDefined();
    const same: FollowUpTable = FOLLOW_UP_STATES;
    expect(same).toBe(FOLLOW_UP_STATES);
  });

  it('every key is an operation of the catalog', () => {
    for (const path of [...Object.keys(FOLLOW_UP_STATES), ...Object.keys(FULL_AMOUNT_OPTIONAL)])
      expect(findOperation(path), path).toBeDefined();
  });

  it('reads: capture after an approved order only; status in every state; full capture and return', () => {
    expect(followUpStates('v2/capture')).toEqual(['approved']);
    expect(followUpStates('v2/status')).toHaveLength(5);
    expect(followUpStates('v2/sale')).toHaveLength(5);
    expect(fullAmountOptional('v2/capture')).toBe(true);
    expect(fullAmountOptional('v2/return')).toBe(true);
    expect(fullAmountOptional('v2/void')).toBe(false);
    expect(fullAmountOptional('toString')).toBe(false);
  });
});
