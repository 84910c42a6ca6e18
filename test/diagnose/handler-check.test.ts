import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nodeCryptoPort } from '../../src/node/node-crypto-port.ts';
import { junitXml, runHandlerChecks, type CheckTransport } from '../../src/diagnose/handler-check.ts';

const KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

type Behaviour = 'correct' | 'not-idempotent' | 'accepts-bad-control' | 'slow' | 'moves-state-back' | 'down';

/** An in-memory handler on a fake clock: each answer advances the clock by its "time". */
function fakeHandler(behaviour: Behaviour) {
  const clock = { now: 0 };
  const states = new Map<string, string>();
  const transport: CheckTransport = {
    async get(url, timeoutMs) {
      const q = new URL(url).searchParams;
      const status = q.get('status')!;
      const id = q.get('orderid')!;
      const ok = q.get('control') === sha1(`${status}${id}${q.get('merchant_order')}${KEY}`);
      // A monotonic clock reads fractions of a millisecond (performance.now()).
      clock.now += behaviour === 'slow' ? timeoutMs + 1.4567 : 17.8912;
      if (behaviour === 'slow') return { status: null, error: 'timeout' };
      if (behaviour === 'down') return { status: 503 };
      if (!ok && behaviour !== 'accepts-bad-control') return { status: 403 };
      if (behaviour === 'not-idempotent' && states.has(id)) return { status: 500 };
      if (behaviour !== 'moves-state-back' && states.get(id) === 'approved' && status === 'processing')
        return { status: 200 };
      states.set(id, status);
      return { status: 200 };
    },
  };
  let n = 100;
  return {
    run: (withState = true) =>
      runHandlerChecks(
        { url: 'http://127.0.0.1:9/cb?shop=1', controlKey: KEY, timeoutMs: 1000 },
        {
          transport,
          crypto: nodeCryptoPort(),
          now: () => clock.now,
          newOrderId: () => String(n++),
          ...(withState ? { readState: async (id: string) => states.get(id) } : {}),
        },
      ),
  };
}

const outcomes = (r: Awaited<ReturnType<ReturnType<typeof fakeHandler>['run']>>) =>
  Object.fromEntries(r.results.map((x) => [x.id, x.outcome]));

describe('handler check (pure)', () => {
  it('passes a correct handler, each check quoting its rule', async () => {
    const report = await fakeHandler('correct').run();
    expect(report.passed).toBe(true);
    expect(outcomes(report)).toEqual({
      'answers-in-time': 'passed',
      'idempotent-duplicate': 'passed',
      'refuses-bad-control': 'passed',
      'no-state-rollback': 'passed',
    });
    for (const r of report.results) expect(r.rule.quote.length).toBeGreaterThan(20);
  });

  it.each([
    ['not-idempotent', 'idempotent-duplicate'],
    ['accepts-bad-control', 'refuses-bad-control'],
    ['slow', 'answers-in-time'],
    ['moves-state-back', 'no-state-rollback'],
  ] as const)('fails a %s handler on %s', async (behaviour, check) => {
    const report = await fakeHandler(behaviour).run();
    expect(report.passed).toBe(false);
    expect(outcomes(report)[check]).toBe('failed');
    if (behaviour !== 'slow')
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => r.id)).toEqual([check]);
  });

  it('says how long an answer took in whole milliseconds ("18 ms"), as the page and the CLI show it', async () => {
    const report = await fakeHandler('correct').run();
    expect(report.results.find((r) => r.id === 'answers-in-time')?.detail).toMatch(/ in 18 ms\.$/);
  });

  it('skips the rollback check without a state view, and keeps the handler query', async () => {
    const report = await fakeHandler('correct').run(false);
    expect(outcomes(report)['no-state-rollback']).toBe('skipped');
    expect(report.passed).toBe(true);
  });

  it('writes JUnit XML with a failure per failed check, its text escaped', async () => {
    // A handler that answers 503 to everything: it "refuses" the forged callback too.
    const report = await fakeHandler('down').run();
    const xml = junitXml(report);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain('tests="4" failures="3"');
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).toContain('Rule (gateway-notes.md, Callbacks)');
    const moved = junitXml({
      ...report,
      results: [{ ...report.results[0]!, outcome: 'failed', detail: 'got "<html>" & more' }],
    });
    expect(moved).toContain('message="got &quot;&lt;html&gt;&quot; &amp; more"');
  });
});
