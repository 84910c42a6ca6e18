/** An unknown outcome's status checks: the automatic one is the console's, a click is the user's. */
import { describe, expect, it } from 'vitest';
import { prepareExchange, type ExchangeRecord, type Transport } from '../../src/model/exchange.ts';
import { OutcomeCheck } from '../../src/features/console/send/outcome-check.ts';
import { signingEnv } from '../model/signing-env.ts';

function setUp() {
  const records: ExchangeRecord[] = [];
  const transport: Transport = () =>
    Promise.resolve({
      status: 200,
      headers: {},
      body: JSON.stringify({ type: 'status-response', status: 'approved' }),
      elapsedMs: 1,
    });
  const check = new OutcomeCheck(
    { operationPath: 'v2/sale', cause: 'reset', clientOrderId: 'inv-1' },
    {
      prepare: (draft) => prepareExchange(draft, signingEnv()),
      transport: () => transport,
      party: () => ({ profileName: 'demo', targetName: 'local' }),
      clock: () => 1_000_000,
      sleep: () => Promise.resolve(),
      onExchange: (r) => records.push(r),
    },
  );
  return { check, records };
}

describe('OutcomeCheck records', () => {
  it('marks its one automatic check as the console’s own', async () => {
    const { check, records } = setUp();
    await check.auto();
    expect(records).toHaveLength(1);
    expect(records[0]!.automatic).toBe(true);
  });

  it('leaves "Check with status" (a click) as the user’s request', async () => {
    const { check, records } = setUp();
    await check.check();
    expect(records).toHaveLength(1);
    expect(records[0]!.automatic).toBeUndefined();
  });
});
