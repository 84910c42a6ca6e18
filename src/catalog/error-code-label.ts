import { z } from 'zod/mini';

/**
 * How an answer's `error-code` reads: the gateway sends a number (gateway-notes.md, "The gateway's
 * default dialect"), this sandbox the number with its symbolic name beside it as `error-reason`,
 * and answers recorded before that carry the name alone. Kept apart from the table
 * (error-codes.ts) so the readers of answers on the console's first page pay a few bytes, not the
 * table's text.
 */
export const ErrorCodeValue = z.union([z.number(), z.string()]);

function present(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The symbolic reason of an answer (`VALIDATION`…): its `error-reason`, or a non-numeric `error-code`. */
export function errorReasonOf(body: Readonly<Record<string, unknown>>): string | undefined {
  const reason = present(body['error-reason']);
  if (reason) return reason;
  const code = present(body['error-code']);
  return code && !/^\d+$/.test(code) ? code : undefined;
}

/**
 * An answer's code as every surface shows it: "1 · VALIDATION" when both are known, else whichever
 * the answer has (a bare number from the real gateway, a bare name from an older sandbox).
 */
export function errorCodeLabel(body: Readonly<Record<string, unknown>>): string | undefined {
  const code = present(body['error-code']);
  const reason = errorReasonOf(body);
  if (code && reason && code !== reason) return `${code} · ${reason}`;
  return code ?? reason;
}
