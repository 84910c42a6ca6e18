import { toMinorUnits } from '../amount.ts';
import { PayError } from '../errors.ts';

/**
 * One term of a `control` formula, in the order the operation's formula lists it. The merchant
 * control key always follows the last term and is not listed.
 * @see api-description.md, Endpoints (the C column) and Authentication, Scheme C.
 */
export type ControlTerm =
  { kind: 'login' } | { kind: 'endpointId' } | { kind: 'field'; name: string; minorUnits?: boolean };

/** Where a term's value came from, as the signing-input view shows it. */
export type TermSource = 'profile' | 'path' | 'body' | 'absent';

export interface ResolvedTerm {
  /** The name the formula uses (`login`, `endpointId`, `client_orderid`, `amount`...). */
  label: string;
  /** The exact text concatenated. */
  value: string;
  source: TermSource;
  /** The raw value before conversion, when it differs (an amount in major units). */
  original?: string;
  /** A short explanation: `10.42 in minor units`, `absent: empty string`, `endpoint group id`. */
  note?: string;
  /** The term could not be resolved (a malformed amount); `value` is then empty. */
  error?: PayError;
}

export interface ControlContext {
  login: string;
  /** Endpoint id, or endpoint group id: the group id replaces the endpoint id in the formula. */
  endpoint: { kind: 'endpoint' | 'group'; id: string };
  /** The body parameters as they will be sent (first occurrence of a name wins). */
  body: ReadonlyArray<{ name: string; value: string }>;
}

/** Step 1 of scheme C: resolve each term of the formula to the text that is concatenated. */
export function resolveControlTerms(terms: readonly ControlTerm[], ctx: ControlContext): ResolvedTerm[] {
  return terms.map((term): ResolvedTerm => {
    switch (term.kind) {
      case 'login':
        return { label: 'login', value: ctx.login, source: 'profile', note: 'merchant login' };
      case 'endpointId':
        return {
          label: 'endpointId',
          value: ctx.endpoint.id,
          source: 'path',
          note:
            ctx.endpoint.kind === 'group'
              ? 'endpoint group id (replaces endpointId)'
              : 'endpoint id from the path',
        };
      case 'field': {
        const found = ctx.body.find((p) => p.name === term.name);
        if (!found) {
          return {
            label: term.name,
            value: '',
            source: 'absent',
            note: 'not sent: signed as the empty string',
          };
        }
        if (!term.minorUnits) return { label: term.name, value: found.value, source: 'body' };
        try {
          const minor = toMinorUnits(found.value, term.name);
          return {
            label: term.name,
            value: minor,
            source: 'body',
            original: found.value,
            note: `${found.value} in minor units`,
          };
        } catch (e) {
          return {
            label: term.name,
            value: '',
            source: 'body',
            original: found.value,
            error: e instanceof PayError ? e : new PayError('AMOUNT_FORMAT', String(e), { field: term.name }),
          };
        }
      }
    }
  });
}

/** Step 2 of scheme C: the plain concatenation of the terms, without separators (key not included). */
export function joinControlTerms(terms: readonly ResolvedTerm[]): string {
  return terms.map((t) => t.value).join('');
}

/** A human-readable spelling of a formula: `endpointId + client_orderid + amount + email + control key`. */
export function describeFormula(terms: readonly ControlTerm[]): string {
  return [...terms.map((t) => (t.kind === 'field' ? t.name : t.kind)), 'merchant_control_key'].join(' + ');
}
