/**
 * paysign: the command-line face of the signing core. Run as `npm run --silent paysign -- …`.
 * Everything is caught here: a failure is one line on stderr and exit code 2, never a stack trace.
 */
import { isPayError } from '../core/index.ts';
import { CliError } from './args.ts';
import { runHandlerCheck } from './commands/handler-check.ts';
import { runCodes } from './commands/codes.ts';
import { runCapsule } from './commands/capsule.ts';
import { runCertificate } from './commands/certificate.ts';
import { runKeys } from './commands/keys.ts';
import { runSign } from './commands/sign.ts';
import { runRun } from './commands/run.ts';
import { runVerify } from './commands/verify.ts';
import { HANDLER_CHECK_HELP, KEYS_HELP, MAIN_HELP, RUN_HELP, signHelp, VERIFY_HELP } from './help.ts';
import { processIo, type Io } from './output.ts';
import { errorText } from '../core/errors.ts';

async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'sign':
      return runSign(rest, io);
    case 'verify':
      return runVerify(rest, io);
    case 'keys':
      return runKeys(rest, io);
    case 'handler-check':
      return runHandlerCheck(rest, io);
    case 'codes':
      return runCodes(rest, io);
    case 'run':
      return runRun(rest, io);
    case 'capsule':
      return runCapsule(rest, io);
    case 'certificate':
      return runCertificate(rest, io);
    case 'help': {
      const topic = rest[0];
      const text =
        topic === 'sign'
          ? signHelp()
          : topic === 'verify'
            ? VERIFY_HELP
            : topic === 'keys'
              ? KEYS_HELP
              : topic === 'handler-check'
                ? HANDLER_CHECK_HELP
                : topic === 'run'
                  ? RUN_HELP
                  : MAIN_HELP;
      io.out(`${text}\n`);
      return 0;
    }
    case '-h':
    case '--help':
      io.out(`${MAIN_HELP}\n`);
      return 0;
    case undefined:
      throw new CliError('no command: use sign, verify or keys; see "paysign --help".');
    default:
      throw new CliError(
        command.startsWith('-')
          ? `unknown option ${command}: give a command first (sign, verify or keys); see "paysign --help".`
          : `unknown command "${command}": use sign, verify or keys; see "paysign --help".`,
      );
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/g;

/** One line, whatever went wrong. */
function describeFailure(e: unknown): { line: string; exitCode: number } {
  // One line, and no terminal control characters echoed from a captured request.
  const oneLine = (s: string) =>
    s
      .replace(/\s*[\r\n]+\s*/g, ' ')
      .replace(CONTROL_CHARS, '?')
      .trim();
  if (e instanceof CliError) return { line: `paysign: ${oneLine(e.message)}`, exitCode: e.exitCode };
  if (isPayError(e)) return { line: `paysign: ${oneLine(e.message)}`, exitCode: 2 };
  const message = errorText(e);
  return { line: `paysign: unexpected error: ${oneLine(message)}`, exitCode: 2 };
}

function fail(e: unknown): void {
  const { line, exitCode } = describeFailure(e);
  process.stderr.write(`${line}\n`);
  process.exitCode = exitCode;
}

// A closed pipe (`paysign … | head`) is not an error worth reporting.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  fail(e);
});
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

main(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
}, fail);
