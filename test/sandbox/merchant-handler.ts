/**
 * A merchant's callback handler of our own, in the test process: it checks `control` with Node's
 * crypto (sha1(status + orderid + merchant_order + key), gateway-notes.md), keeps each order's state,
 * and answers `GET /orders/<orderid>` with `{"status": …}`. Each broken mode breaks one rule.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HandlerMode = 'correct' | 'not-idempotent' | 'accepts-bad-control' | 'slow' | 'moves-state-back';

export interface Hit {
  path: string;
  query: URLSearchParams;
  /** Whether the control matched (checked here, independently of the sandbox). */
  controlOk: boolean;
  answered: number;
}

export interface MerchantHandler {
  base: string;
  hits: Hit[];
  states: Map<string, string>;
  /** Paths answering 500 the given number of times (a handler that is down). */
  failures: Map<string, number>;
  close(): Promise<void>;
}

const FINAL = new Set(['approved', 'declined', 'error', 'filtered']);
const RANK: Record<string, number> = { processing: 0, unknown: 0 };

export function sha1(s: string): string {
  return createHash('sha1').update(s, 'utf8').digest('hex');
}

export async function startMerchantHandler(
  controlKey: string,
  mode: HandlerMode = 'correct',
): Promise<MerchantHandler> {
  const hits: Hit[] = [];
  const states = new Map<string, string>();
  const failures = new Map<string, number>();
  const held: ServerResponse[] = [];
  const answer = (res: ServerResponse, code: number, body: string) => {
    res.statusCode = code;
    res.setHeader('content-type', 'text/plain');
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const state = /^\/orders\/(\d+)$/.exec(u.pathname);
    if (state) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: states.get(state[1]!) ?? 'unknown-order' }));
      return;
    }
    const q = u.searchParams;
    const status = q.get('status') ?? '';
    const orderid = q.get('orderid') ?? '';
    const controlOk =
      q.get('control') === sha1(`${status}${orderid}${q.get('merchant_order') ?? ''}${controlKey}`);
    const hit: Hit = { path: u.pathname, query: q, controlOk, answered: 0 };
    hits.push(hit);
    const reply = (code: number, body: string) => {
      hit.answered = code;
      answer(res, code, body);
    };
    const fail = failures.get(u.pathname) ?? 0;
    if (fail > 0) {
      failures.set(u.pathname, fail - 1);
      return reply(500, 'down');
    }
    if (mode === 'slow') {
      held.push(res); // answered only when the server closes: past any timeout
      return;
    }
    if (!controlOk && mode !== 'accepts-bad-control') return reply(403, 'bad control');
    const known = states.get(orderid);
    if (mode === 'not-idempotent' && known !== undefined) return reply(409, 'already processed');
    // A correct handler keeps a final state: a late, earlier status does not move it back.
    if (mode !== 'moves-state-back' && known !== undefined && FINAL.has(known) && (RANK[status] ?? 1) < 1)
      return reply(200, 'stale, ignored');
    states.set(orderid, status);
    return reply(200, `OK ${orderid}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    states,
    failures,
    close: () =>
      new Promise((resolve) => {
        for (const r of held) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
