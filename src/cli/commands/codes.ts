import { ERROR_CODES } from '../../catalog/error-codes.ts';
import { CliError } from '../args.ts';
import type { Io } from '../output.ts';

/**
 * `paysign codes [N|NAME ...]`: the sandbox's refusal codes as every surface shows them,
 * "1 · VALIDATION", with where the number comes from (the gateway's public code, or this project).
 */
export function runCodes(args: readonly string[], io: Io): number {
  const wanted = args.filter((a) => !a.startsWith('-'));
  const unknownOption = args.find((a) => a.startsWith('-'));
  if (unknownOption)
    throw new CliError(`unknown option ${unknownOption}: paysign codes takes codes or names.`);
  const rows = wanted.length
    ? wanted.map((w) => {
        const hit = ERROR_CODES.find((e) => String(e.code) === w || e.reason === w.toUpperCase());
        if (!hit)
          throw new CliError(
            `no error code "${w}": the gateway publishes no full table; see "paysign codes" for the known ones.`,
          );
        return hit;
      })
    : ERROR_CODES;
  const width = Math.max(...rows.map((e) => `${e.code} · ${e.reason}`.length));
  for (const e of rows) {
    const from = e.source === 'gateway' ? 'gateway' : 'sandbox';
    io.out(`${`${e.code} · ${e.reason}`.padEnd(width)}  ${from.padEnd(7)}  ${e.meaning}\n`);
  }
  return 0;
}
