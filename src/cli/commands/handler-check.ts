import { errorText } from '../../core/errors.ts';
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import {
  junitXml,
  runHandlerChecks,
  type CheckTransport,
  type HandlerCheckReport,
} from '../../diagnose/handler-check.ts';
import { CliError, ENV, flag, parseCommandArgs, resolveControlKey, str } from '../args.ts';
import { HANDLER_CHECK_HELP } from '../help.ts';
import type { Io } from '../output.ts';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'control-key': { type: 'string' },
  'control-key-file': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'state-url': { type: 'string' },
  junit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const fetchTransport: CheckTransport = {
  async get(url, timeoutMs) {
    try {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status };
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      return {
        status: null,
        error: err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.message),
      };
    }
  },
};

const StateAnswer = z.object({ status: z.string() });

/** The handler's own view of an order (`--state-url …{orderid}`): JSON `{"status"}` or plain text. */
async function readState(template: string, orderid: string, timeoutMs: number): Promise<string | undefined> {
  const res = await fetch(template.replaceAll('{orderid}', encodeURIComponent(orderid)), {
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = (await res.text()).trim();
  if (!res.ok) return undefined;
  try {
    const parsed = StateAnswer.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.status;
  } catch {
    // Plain text.
  }
  return text.slice(0, 40);
}

function render(report: HandlerCheckReport): string {
  const lines = [`Handler check of ${report.url}`, ''];
  for (const r of report.results) {
    const mark = r.outcome === 'passed' ? 'PASS' : r.outcome === 'failed' ? 'FAIL' : 'SKIP';
    lines.push(`${mark}  ${r.id}: ${r.title}`);
    lines.push(`      ${r.detail}`);
    lines.push(`      Rule (${r.rule.source}, ${r.rule.section}): ${r.rule.quote}`);
  }
  const failed = report.results.filter((r) => r.outcome === 'failed').length;
  lines.push('', failed === 0 ? 'All checks passed.' : `${failed} check(s) failed.`);
  return `${lines.join('\n')}\n`;
}

/**
 * `paysign handler-check <url>`: sends the handler genuine, duplicate, forged and stale callbacks
 * (src/diagnose/handler-check.ts). Exit 0 when every check passes, 1 when one fails, 2 on bad input.
 */
export async function runHandlerCheck(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('handler-check', args, OPTIONS);
  if (flag(values, 'help')) {
    io.out(`${HANDLER_CHECK_HELP}\n`);
    return 0;
  }
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0)
    throw new CliError('handler-check takes one URL: paysign handler-check http://127.0.0.1:8080/callback');
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new CliError(
      `"${url.slice(0, 120)}" is not an absolute URL: give the handler's address, e.g. http://127.0.0.1:8080/callback.`,
    );
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')
    throw new CliError(`the handler's URL must be http or https (got ${parsedUrl.protocol}).`);
  const controlKey = await resolveControlKey(values, io.env);
  if (controlKey === undefined)
    throw new CliError(
      `callbacks are signed with the merchant control key: pass --control-key-file FILE, set ${ENV.controlKey}, or pass --control-key KEY.`,
    );
  const rawTimeout = str(values, 'timeout-ms');
  const timeoutMs = rawTimeout === undefined ? 5000 : Number(rawTimeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 50 || timeoutMs > 600_000)
    throw new CliError(
      `--timeout-ms must be a whole number of milliseconds from 50 to 600000 (got ${rawTimeout}).`,
    );
  const stateUrl = str(values, 'state-url');
  if (stateUrl !== undefined && !stateUrl.includes('{orderid}'))
    throw new CliError('--state-url must contain {orderid}, e.g. http://127.0.0.1:8080/orders/{orderid}.');

  const report = await runHandlerChecks(
    { url: parsedUrl.href, controlKey, timeoutMs },
    {
      transport: fetchTransport,
      crypto: nodeCryptoPort(),
      now: () => performance.now(),
      newOrderId: () => String(randomInt(1, 2 ** 47)),
      ...(stateUrl ? { readState: (orderid: string) => readState(stateUrl, orderid, timeoutMs) } : {}),
    },
  );
  const junit = str(values, 'junit');
  if (junit !== undefined) {
    try {
      await writeFile(junit, junitXml(report));
    } catch (e) {
      throw new CliError(`cannot write --junit "${junit}": ${errorText(e)}.`);
    }
  }
  io.out(flag(values, 'json') ? `${JSON.stringify(report, null, 2)}\n` : render(report));
  return report.passed ? 0 : 1;
}
