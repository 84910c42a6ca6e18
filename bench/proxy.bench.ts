/**
 * The proxy's added latency: the same signed status request (control scheme) sent straight to the
 * local sandbox and through POST /proxy/local/..., with autocannon, in the same run against the
 * same in-process server. The difference is what the console pays for going through the proxy
 * (one more HTTP hop on loopback, the envelope, the header filtering).
 */
import {
  approvedCardRef,
  expectAnswer,
  formatLoadTable,
  load,
  signRequest,
  startBenchServer,
} from './sandbox.bench.ts';

export const title = 'Proxy: added latency over direct calls to the local sandbox (autocannon)';

export async function run(): Promise<void> {
  const s = await startBenchServer();
  try {
    const { saleId, orderId } = await approvedCardRef(s);
    const status = await signRequest(s, 'v2/status', { client_orderid: saleId, orderid: orderId });
    const directUrl = `${s.baseUrl}/${status.path}`;
    const proxyUrl = `${s.origin}/proxy/local/${status.path}`;
    const direct = await expectAnswer(directUrl, status, 'status-response');
    const proxied = await expectAnswer(proxyUrl, status, 'status-response');
    if (direct.status !== proxied.status)
      throw new Error('the proxy and the sandbox disagree on the status answer');

    await load('warm-up', directUrl, status, { durationSec: 1 });
    await load('warm-up', proxyUrl, status, { durationSec: 1 });
    const diff = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(2)} ms`;
    for (const connections of [1, 10]) {
      const d = await load('direct   POST /sandbox/paynet/api/v2/status', directUrl, status, {
        durationSec: 6,
        connections,
      });
      const p = await load('proxied  POST /proxy/local/api/v2/status', proxyUrl, status, {
        durationSec: 6,
        connections,
      });
      console.log(
        `\n${connections} connection${connections > 1 ? 's' : ''}, one Node process (server and load generator share it):\n`,
      );
      console.log(formatLoadTable([d, p]));
      console.log(
        `added by the proxy: median ${diff(d.median, p.median)}, p95 ${diff(d.p95, p.p95)}; ` +
          `throughput ${((p.rps / d.rps) * 100).toFixed(0)}% of direct (${Math.round(d.rps)} → ${Math.round(p.rps)} req/s)`,
      );
    }
  } finally {
    await s.close();
  }
}
