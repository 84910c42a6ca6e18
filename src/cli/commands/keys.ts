import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GENERATABLE_BITS,
  generateKeyPair,
  inspectKey,
  toPkcs1Pem,
  toPkcs1PublicPem,
  toPkcs8Pem,
  toSpkiPem,
} from '../../core/keys/key-containers.ts';
import { CliError, flag, parseCommandArgs, readFileOrStdin, rethrowAbout, str } from '../args.ts';
import { KEYS_CONVERT_HELP, KEYS_GENERATE_HELP, KEYS_HELP, KEYS_INSPECT_HELP } from '../help.ts';
import { fields, json, type Io } from '../output.ts';
import { errorText } from '../../core/errors.ts';

const HELP = { help: { type: 'boolean', short: 'h' } } as const;
const PRIVATE_MODE = 0o600;
const PUBLIC_MODE = 0o644;

export async function runKeys(args: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'generate':
      return generate(rest, io);
    case 'inspect':
      return inspect(rest, io);
    case 'convert':
      return convert(rest, io);
    case undefined:
      throw new CliError('keys needs a subcommand: generate, inspect or convert ("paysign keys --help").');
    case '-h':
    case '--help':
    case 'help':
      io.out(`${KEYS_HELP}\n`);
      return 0;
    default:
      throw new CliError(
        sub.startsWith('-')
          ? `unknown option ${sub} for "keys": give a subcommand first (generate, inspect or convert).`
          : `unknown keys subcommand "${sub}": use generate, inspect or convert ("paysign keys --help").`,
      );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file, refusing to replace one unless forced; the mode is set even on a replaced file. */
async function writeKeyFile(path: string, text: string, mode: number, force: boolean): Promise<void> {
  try {
    await writeFile(path, text, { mode, flag: force ? 'w' : 'wx' });
    await chmod(path, mode);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'EEXIST') throw new CliError(`${path} already exists: pass --force to overwrite it.`);
    throw new CliError(`cannot write ${path}: ${errorText(e)}.`);
  }
}

async function generate(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('keys generate', args, {
    ...HELP,
    bits: { type: 'string' },
    'out-dir': { type: 'string' },
    force: { type: 'boolean' },
  });
  if (values.help) {
    io.out(`${KEYS_GENERATE_HELP}\n`);
    return 0;
  }
  if (positionals.length > 0)
    throw new CliError(`unexpected argument "${positionals[0]}": did you mean --out-dir ${positionals[0]}?`);
  const bitsText = str(values, 'bits') ?? '4096';
  const bits = Number(bitsText);
  if (!/^\d+$/.test(bitsText) || !(GENERATABLE_BITS as readonly number[]).includes(bits)) {
    throw new CliError(
      `--bits ${bitsText} is not offered: choose ${GENERATABLE_BITS.join(', ')} (the gateway needs at least 2048).`,
    );
  }
  const dir = str(values, 'out-dir');
  const force = flag(values, 'force');
  const files =
    dir === undefined
      ? []
      : [
          {
            name: 'private-pkcs8.pem',
            mode: PRIVATE_MODE,
            what: 'private key, PKCS#8 (BEGIN PRIVATE KEY): keep it secret',
          },
          {
            name: 'private-pkcs1.pem',
            mode: PRIVATE_MODE,
            what: 'private key, PKCS#1 (BEGIN RSA PRIVATE KEY): keep it secret',
          },
          {
            name: 'public.pem',
            mode: PUBLIC_MODE,
            what: 'public key, SPKI (BEGIN PUBLIC KEY): send this one to the gateway',
          },
        ].map((f) => ({ ...f, path: join(dir, f.name) }));
  if (!force) {
    // Check all three first so that a refusal leaves nothing half-written.
    for (const f of files)
      if (await exists(f.path)) throw new CliError(`${f.path} already exists: pass --force to overwrite it.`);
  }
  const pair = await generateKeyPair(bits, nodeCryptoPort());
  const fingerprint = `RSA ${pair.bits} bits, fingerprint (SHA-256 of the public key's SPKI DER): ${pair.fingerprint}`;
  if (dir === undefined) {
    io.out(
      [
        '# private key, PKCS#8 (BEGIN PRIVATE KEY): keep it secret',
        pair.pkcs8Pem,
        '# the same private key, PKCS#1 (BEGIN RSA PRIVATE KEY)',
        pair.pkcs1Pem,
        '# public key, SPKI (BEGIN PUBLIC KEY): send this one to the gateway',
        pair.spkiPem,
        `# ${fingerprint}`,
        '',
      ].join('\n'),
    );
    return 0;
  }
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new CliError(`cannot create --out-dir ${dir}: ${errorText(e)}.`);
  }
  const texts = [pair.pkcs8Pem, pair.pkcs1Pem, pair.spkiPem];
  for (const [i, f] of files.entries()) await writeKeyFile(f.path, texts[i]!, f.mode, force);
  const width = Math.max(...files.map((f) => f.path.length));
  io.out(`${files.map((f) => `wrote ${f.path.padEnd(width)}  ${f.what}`).join('\n')}\n${fingerprint}\n`);
  return 0;
}

async function inspect(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('keys inspect', args, {
    ...HELP,
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.out(`${KEYS_INSPECT_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError('keys inspect takes one key: a FILE, or - for stdin.');
  const file = positionals[0]!;
  const text = await readFileOrStdin(file, 'key', 'give a FILE, or pipe the key on stdin with -');
  const info = await inspectKey(text, nodeCryptoPort());
  if (info.kind === 'garbage') rethrowAbout(file === '-' ? 'stdin' : file, info.problem);
  const code = info.problem ? 1 : 0;
  if (flag(values, 'json')) {
    io.out(
      json({
        kind: info.kind,
        label: info.label,
        bits: info.bits ?? null,
        private: info.isPrivate,
        fingerprint: info.fingerprint ?? null,
        usable: !info.problem,
        warnings: info.warnings,
        problem: info.problem ? { code: info.problem.code, message: info.problem.message } : null,
      }),
    );
    return code;
  }
  const rows: Array<[string, string]> = [['kind', info.label]];
  if (info.bits !== undefined) rows.push(['bits', String(info.bits)]);
  rows.push(['private', info.isPrivate ? 'yes' : 'no (public half only: verifies, cannot sign)']);
  if (info.fingerprint) rows.push(['fingerprint', `${info.fingerprint} (SHA-256 of the SPKI DER)`]);
  for (const w of info.warnings) rows.push(['warning', w]);
  if (info.problem) rows.push(['problem', info.problem.message]);
  rows.push([
    'usable',
    info.problem
      ? 'no'
      : info.isPrivate
        ? 'yes: signs RSA-SHA256 requests'
        : 'yes: verifies RSA-SHA256 requests',
  ]);
  io.out(`${fields(rows)}\n`);
  return code;
}

const CONVERSIONS = {
  pkcs8: { convert: toPkcs8Pem, private: true },
  pkcs1: { convert: toPkcs1Pem, private: true },
  spki: { convert: toSpkiPem, private: false },
  'pkcs1-public': { convert: toPkcs1PublicPem, private: false },
} as const;

async function convert(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('keys convert', args, {
    ...HELP,
    to: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
  });
  if (values.help) {
    io.out(`${KEYS_CONVERT_HELP}\n`);
    return 0;
  }
  if (positionals.length !== 1) throw new CliError('keys convert takes one key: a FILE, or - for stdin.');
  const to = str(values, 'to');
  if (to === undefined)
    throw new CliError(`keys convert needs --to: one of ${Object.keys(CONVERSIONS).join(', ')}.`);
  if (!Object.hasOwn(CONVERSIONS, to))
    throw new CliError(
      `--to ${to} is not a form paysign writes: use ${Object.keys(CONVERSIONS).join(', ')}.`,
    );
  const conversion = CONVERSIONS[to as keyof typeof CONVERSIONS];
  const file = positionals[0]!;
  const text = await readFileOrStdin(file, 'key', 'give a FILE, or pipe the key on stdin with -');
  let pem: string;
  try {
    pem = await conversion.convert(text, nodeCryptoPort());
  } catch (e) {
    rethrowAbout(file === '-' ? 'stdin' : file, e);
  }
  const out = str(values, 'out');
  if (out === undefined) {
    io.out(pem);
    return 0;
  }
  await writeKeyFile(out, pem, conversion.private ? PRIVATE_MODE : PUBLIC_MODE, flag(values, 'force'));
  io.out(`wrote ${out} (${to}${conversion.private ? ', mode 0600' : ''})\n`);
  return 0;
}
