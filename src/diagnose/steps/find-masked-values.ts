import type { Scheme } from '../../core/request/operation-spec.ts';
import type { Verification } from '../../core/verify/verify-signature.ts';
import type { DiagnoseOperation, Finding } from '../structural-checks.ts';

/**
 * A card number as the console's own exports (and most gateways' logs) mask it: the first six and
 * last four digits kept, stars between (`444444******4448`), separators allowed.
 */
const MASKED_PAN = /(?<![\d*])\d{4,6}[ -]?(?:\*[ -]?){2,9}\d{4}(?![\d*])/;
/** Markers an export writes in place of what it removed (the console's own card-data policy). */
const REMOVED_MARKER = /\[(?:private key )?removed\]/i;

export interface MaskedValues {
  /** Fields whose value is masked (signed or not), by name. */
  masked: string[];
  /** Signed fields the export left out (CVVs), by name. */
  removed: string[];
  /** Whether a masked or removed value is in the signed input: then the signature cannot be checked. */
  signed: boolean;
  /** Masking breaks no rule of the description: a warning, never a cause of a mismatch. */
  finding: Finding;
}

/**
 * Step 4b: values an export masked (a card number with stars, a removed marker) or dropped (a CVV
 * the operation signs, missing from an export that says it drops them). Such a capture cannot be
 * replayed as is, whatever its signature; and when a masked value is signed, the signature was made
 * over the original values, so it cannot be checked over these (the key is not to blame).
 * Undefined when nothing is masked.
 */
export function findMaskedValues(args: {
  verification: Verification;
  operation: DiagnoseOperation;
  scheme: Scheme;
  body: ReadonlyArray<{ name: string; value: string }>;
  /** The capture says it was exported with card data masked (the console's HAR marker). */
  maskedExport: boolean;
}): MaskedValues | undefined {
  const { verification: v, body } = args;
  const signedNames =
    v.scheme === 'control'
      ? new Set(v.trace.terms.filter((t) => t.source === 'body').map((t) => t.label))
      : new Set(body.map((p) => p.name));
  const masked = body
    .filter((p) => MASKED_PAN.test(p.value) || REMOVED_MARKER.test(p.value))
    .map((p) => p.name);
  const present = new Set(body.map((p) => p.name));
  const removed = args.maskedExport
    ? (args.operation.fields ?? [])
        .filter((f) => f.sensitive === 'cvv' && !present.has(f.name))
        .filter((f) => args.scheme !== 'control' || signedNames.has(f.name))
        .map((f) => f.name)
    : [];
  // A CVV the operation merely allows proves nothing on its own: only with a masked number beside it.
  if (masked.length === 0) return undefined;
  const signedMasked = masked.filter((n) => signedNames.has(n));
  const signed = signedMasked.length > 0;
  const what = [
    `${masked.join(', ')} ${masked.length === 1 ? 'is' : 'are'} masked`,
    ...(signed && removed.length > 0
      ? [`${removed.join(', ')} ${removed.length === 1 ? 'was' : 'were'} removed`]
      : []),
  ].join(' and ');
  const replay = `Masked: it cannot be replayed as is; type the real ${masked.length + (signed ? removed.length : 0) === 1 ? 'value' : 'values'} before sending it again.`;
  return {
    masked,
    removed: signed ? removed : [],
    signed,
    finding: {
      id: 'masked-values',
      severity: 'warning',
      subject: signed ? signedMasked.join(', ') : masked.join(', '),
      message: signed
        ? `The signed input holds masked data: ${what}${
            args.maskedExport
              ? removed.length > 0
                ? ' (the capture is an export that masks card data)'
                : ' (the capture is an export that masks card numbers and drops CVVs and secrets, had the request any)'
              : ''
          }. The signature was computed over the original values, so it cannot be checked over these. ${replay}`
        : `The capture holds masked data: ${what} (not signed, so the signature is checked as usual). ${replay}`,
    },
  };
}
