import { errorText } from '../../core/errors.ts';
import { secureNonceSource } from '../../core/index.ts';
import { importSigningKey } from '../../core/keys/key-containers.ts';
import { ThrowawayMerchantSchema } from '../../contracts/sandbox-merchant.ts';
import type { Capsule } from '../../diagnose/capsule/index.ts';
import { replayCapsule, type ReplayReport } from '../../exports/replay-capsule.ts';
import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import { CliError } from '../args.ts';

/** The sandbox's origin as given (`--sandbox`): http(s), no path beyond `/`. */
export function sandboxOrigin(text: string | undefined): string {
  if (text === undefined)
    throw new CliError(
      'replay needs --sandbox <origin>, e.g. --sandbox http://127.0.0.1:4174 (npm run sandbox) or the console of npm start.',
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(
      `--sandbox "${text}" is not a URL: give the sandbox's origin, e.g. http://127.0.0.1:4174.`,
    );
  }
  if (!/^https?:$/.test(url.protocol))
    throw new CliError(`--sandbox "${text}": give an http or https origin, e.g. http://127.0.0.1:4174.`);
  return url.origin;
}

/**
 * Replays a capsule into a fresh merchant of the sandbox at `origin` (`POST /sandbox/merchants`,
 * which answers on loopback only): the incident's merchant's key is neither asked for nor sent.
 */
export async function replayIntoSandbox(
  capsule: Capsule,
  origin: string,
  onStep?: (line: string) => void,
): Promise<ReplayReport> {
  const crypto = nodeCryptoPort();
  let res: Response;
  try {
    res = await fetch(`${origin}/sandbox/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ purpose: 'replay' }),
    });
  } catch (e) {
    throw new CliError(`the sandbox at ${origin} cannot be reached (${errorText(e)}): is it running?`);
  }
  const text = await res.text();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  const made = ThrowawayMerchantSchema.safeParse(doc);
  if (res.status !== 201 || !made.success) {
    const said = (doc as { 'error-message'?: unknown } | undefined)?.['error-message'];
    throw new CliError(
      `the sandbox at ${origin} made no merchant for the replay (HTTP ${res.status}${typeof said === 'string' ? `: ${said}` : ''}); POST /sandbox/merchants answers only on this machine.`,
    );
  }
  const m = made.data;
  const privateKey = (await importSigningKey(m.privateKeyPkcs8Pem, crypto)).key;
  return replayCapsule(
    capsule,
    { ...m, privateKey },
    {
      runtime: { crypto, clock: Date.now, nonce: secureNonceSource() },
      send: async (built) => {
        const headers = new Headers();
        for (const h of built.headers) if (h.name.toLowerCase() !== 'host') headers.set(h.name, h.value);
        const r = await fetch(built.url, { method: built.method, headers, body: built.bodyText });
        return { status: r.status, body: await r.text() };
      },
      wait: (ms) => new Promise((done) => setTimeout(done, ms)),
    },
    {
      baseUrl: `${origin}/sandbox/paynet`,
      origin,
      onStep: (r, done, total) =>
        onStep?.(`  ${String(done).padStart(3)}/${total}  ${r.operation.padEnd(22)} ${r.outcome}\n`),
    },
  );
}

/** The replay as text: one line per step, then each difference and note under it. */
export function renderReplay(report: ReplayReport): string {
  const out = [`replayed into sandbox merchant ${report.login}`];
  for (const s of report.steps) {
    out.push(
      `  ${String(s.index + 1).padStart(3)}  ${s.kind.padEnd(8)} ${s.operation.padEnd(22)} ${s.outcome}${s.sandboxStatus !== null ? ` · sandbox answered ${s.sandboxStatus}` : ''}`,
    );
    if (s.sandboxMessage !== undefined) out.push(`         the sandbox said: ${s.sandboxMessage}`);
    for (const d of s.differences)
      out.push(
        `         ${d.field}: the logs say ${JSON.stringify(d.captured)}, the sandbox ${JSON.stringify(d.sandbox)}`,
      );
    for (const n of s.notes) out.push(`         note: ${n}`);
  }
  const c = report.counts;
  out.push(
    '',
    `${c.same} same, ${c.differs} differ, ${c['no-record']} without a recorded answer, ${c['not-sent']} not sent`,
  );
  return `${out.join('\n')}\n`;
}
