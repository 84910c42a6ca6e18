import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isPayError } from '../core/index.ts';
import { errorText } from '../core/errors.ts';

/** A usage or input error: one line on stderr, then the exit code (2 unless said otherwise). */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** The environment the CLI reads, named here so that --help and the code agree. */
export const ENV = {
  baseUrl: 'PAYSIGN_BASE_URL',
  controlKey: 'PAYSIGN_CONTROL_KEY',
} as const;

/** The local sandbox's gateway address, the default target of `paysign sign`. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4173/sandbox/paynet';

/**
 * `node:util` parseArgs in strict mode, with its errors rewritten as one line that names the flag
 * and points at the command's help.
 */
export function parseCommandArgs<O extends OptionSpec>(command: string, args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (e) {
    const code = (e as { code?: string }).code;
    const message = errorText(e);
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    const help = `run "paysign ${command} --help"`;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new CliError(`unknown option ${flag} for "${command}": ${help} for the list.`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (/does not take an argument/.test(message))
        throw new CliError(`option ${flag} takes no value: ${help}.`);
      if (/ambiguous/.test(message))
        throw new CliError(`the value of ${flag} starts with "-": write it as ${flag}=VALUE.`);
      throw new CliError(`option ${flag} needs a value (e.g. ${flag} VALUE): ${help}.`);
    }
    throw new CliError(`${message.split('\n')[0]} (${help}).`);
  }
}

/** A string option's value, or undefined. */
export function str(values: Record<string, unknown>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A boolean option's value. */
export function flag(values: Record<string, unknown>, name: string): boolean {
  return values[name] === true;
}

/** Reads a text file named by an option; the error names the option and says what went wrong. */
export async function readTextFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : errorText(e);
    throw new CliError(`cannot read ${what} "${path}": ${why}.`);
  }
}

/** Reads all of stdin as UTF-8 text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A file argument, or stdin when it is absent or `-`; refuses to wait on an interactive terminal. */
export async function readFileOrStdin(path: string | undefined, what: string, hint: string): Promise<string> {
  if (path !== undefined && path !== '-') return readTextFile(path, what);
  if (process.stdin.isTTY) throw new CliError(`no ${what} given: ${hint}.`);
  return readStdin();
}

/**
 * The merchant control key from --control-key, --control-key-file or $PAYSIGN_CONTROL_KEY, in that
 * order. A key file may end with a newline; surrounding whitespace is dropped.
 */
export async function resolveControlKey(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const inline = str(values, 'control-key');
  const file = str(values, 'control-key-file');
  if (inline !== undefined && file !== undefined) {
    throw new CliError('give the control key once: either --control-key or --control-key-file, not both.');
  }
  if (inline !== undefined) {
    if (inline.trim() === '') throw new CliError('--control-key is empty: give the merchant control key.');
    return inline.trim();
  }
  if (file !== undefined) {
    const text = (await readTextFile(file, '--control-key-file')).trim();
    if (text === '')
      throw new CliError(`--control-key-file "${file}" is empty: put the merchant control key in it.`);
    if (/[\r\n]/.test(text))
      throw new CliError(
        `--control-key-file "${file}" has more than one line: put only the merchant control key in it.`,
      );
    return text;
  }
  const fromEnv = env[ENV.controlKey]?.trim();
  return fromEnv === '' ? undefined : fromEnv;
}

/** `name=value` arguments, split at the first `=` (values may contain `=`). */
export function parsePairs(args: readonly string[]): Array<{ name: string; value: string }> {
  return args.map((arg) => {
    const eq = arg.indexOf('=');
    if (eq <= 0) {
      throw new CliError(
        eq === 0
          ? `"${arg}" has no parameter name: write name=value, e.g. client_orderid=inv-1.`
          : `unexpected argument "${arg}": request parameters are written name=value, e.g. amount=10.42.`,
      );
    }
    return { name: arg.slice(0, eq), value: arg.slice(eq + 1) };
  });
}

/** A PayError's message prefixed with the input it is about (`--private-key-file key.pem: …`). */
export function rethrowAbout(what: string, e: unknown): never {
  if (isPayError(e)) throw new CliError(`${what}: ${e.message}`);
  throw e;
}
