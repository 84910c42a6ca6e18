import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { importVerifyingKey } from '../../core/keys/key-containers.ts';
import { buildCapsule, splitIncident, verifyCapsule, type Capsule } from '../../diagnose/capsule/index.ts';
import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import {
  CliError,
  flag,
  parseCommandArgs,
  readTextFile,
  resolveControlKey,
  rethrowAbout,
  str,
} from '../args.ts';
import { CAPSULE_HELP } from '../help.ts';
import { json, type Io } from '../output.ts';
import { renderReplay, replayIntoSandbox, sandboxOrigin } from './capsule-replay.ts';

const BUILD_OPTIONS = {
  login: { type: 'string' },
  'control-key': { type: 'string' },
  'control-key-file': { type: 'string' },
  'public-key-file': { type: 'string' },
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const VERIFY_OPTIONS = {
  json: { type: 'boolean' },
  replay: { type: 'boolean' },
  sandbox: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The timeline as text: order by order, each step's time, what it was and its verdict; then the findings. */
export function renderTimeline(c: Capsule): string {
  const out: string[] = [];
  for (const o of c.orders) {
    out.push(
      `order ${o.clientOrderId || '(no client_orderid)'}${o.orderIds.length ? ` (orderid ${o.orderIds.join(', ')})` : ''}`,
    );
    for (const i of o.steps) {
      const s = c.steps[i]!;
      const when = s.time === null ? '(no time)'.padEnd(24) : new Date(s.time).toISOString();
      const cause = s.causes[0] ? ` · ${s.causes[0].title} [${s.causes[0].confidence}]` : '';
      out.push(
        `  ${String(i + 1).padStart(3)}  ${when}  ${s.kind.padEnd(8)} ${s.operation.padEnd(22)} ${s.verdict}${s.answerStatus !== null ? ` · answered ${s.answerStatus}` : ''}${cause}`,
      );
    }
  }
  if (c.findings.length > 0) {
    out.push('', 'State rules');
    for (const f of c.findings)
      out.push(`  step ${f.step + 1} (${f.clientOrderId || 'no client_orderid'}): ${f.message}`);
  }
  if (c.skipped > 0) out.push('', `${c.skipped} line(s) or block(s) held no request and were skipped.`);
  return `${out.join('\n')}\n`;
}

/** `paysign capsule build|verify|replay`: an incident turned into a checked, hash-chained timeline. */
export async function runCapsule(args: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') {
    io.out(`${CAPSULE_HELP}\n`);
    return 0;
  }
  const crypto = nodeCryptoPort();
  if (sub === 'build') {
    const { values, positionals } = parseCommandArgs('capsule build', rest, BUILD_OPTIONS);
    if (values.help) {
      io.out(`${CAPSULE_HELP}\n`);
      return 0;
    }
    if (positionals.length === 0)
      throw new CliError(
        "capsule build needs the incident's files: logs, HAR files, curl commands, access logs.",
      );
    const files = [];
    for (const f of positionals)
      files.push({ name: basename(f), text: await readTextFile(f, 'incident file') });
    const controlKey = await resolveControlKey(values, io.env);
    const keyFile = str(values, 'public-key-file');
    let publicKey: CryptoKey | undefined;
    if (keyFile !== undefined) {
      try {
        publicKey = (await importVerifyingKey(await readTextFile(keyFile, '--public-key-file'), crypto)).key;
      } catch (e) {
        rethrowAbout(`--public-key-file "${keyFile}"`, e);
      }
    }
    const { items, skipped } = splitIncident(files);
    if (items.length === 0)
      throw new CliError(
        'no request, callback or return found in the files: give the logs, HAR files or curl commands of the incident.',
      );
    const login = str(values, 'login');
    const capsule = await buildCapsule(
      items,
      {
        ...(controlKey !== undefined ? { controlKey } : {}),
        ...(publicKey ? { publicKey } : {}),
        ...(login !== undefined ? { login } : {}),
      },
      crypto,
      skipped,
    );
    const out = str(values, 'out');
    if (out !== undefined) await writeFile(out, `${JSON.stringify(capsule, null, 2)}\n`);
    if (flag(values, 'json') || out === undefined) io.out(json(capsule));
    else io.out(renderTimeline(capsule));
    return 0;
  }
  if (sub === 'verify' || sub === 'replay') {
    const { values, positionals } = parseCommandArgs(`capsule ${sub}`, rest, VERIFY_OPTIONS);
    if (values.help) {
      io.out(`${CAPSULE_HELP}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new CliError(`capsule ${sub} reads one capsule file.`);
    const replay = sub === 'replay' || flag(values, 'replay');
    // Checked before anything is read or sent: a replay needs a sandbox.
    const origin = replay ? sandboxOrigin(str(values, 'sandbox')) : undefined;
    const text = await readTextFile(positionals[0]!, 'capsule');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new CliError(
        `"${positionals[0]}" is not JSON: give a capsule written by "paysign capsule build".`,
      );
    }
    const check = await verifyCapsule(doc, crypto);
    const asJson = flag(values, 'json');
    if (!asJson) {
      io.out(check.ok ? 'capsule OK: every step follows the chain\n' : 'capsule BROKEN\n');
      for (const p of check.problems) io.out(`  ${p}\n`);
      if (check.ok && !replay) io.out(renderTimeline(doc as Capsule));
    }
    // A broken capsule is never replayed: its steps are not what the merchant sent.
    if (!check.ok || origin === undefined) {
      if (asJson) io.out(json(check));
      return check.ok ? 0 : 1;
    }
    const report = await replayIntoSandbox(doc as Capsule, origin, asJson ? undefined : (l) => io.err(l));
    if (asJson) io.out(json({ ...check, replay: report }));
    else io.out(renderReplay(report));
    return report.divergent ? 1 : 0;
  }
  throw new CliError(
    `unknown capsule command "${sub}": use build, verify or replay; see "paysign capsule --help".`,
  );
}
