import type { AttemptRecord } from './checks.ts';
import type { Check, CheckStep } from './exercise-schema.ts';

/**
 * The 3-D Secure version a request asks for, read as the sandbox reads it (sandbox/engine/params.ts
 * `threeDsVersion`): `threeds_version`, else 3DS 2 browser fields; null when it asks for neither.
 */
export function requestedThreeDs(bodyText: string): '2' | '1.0.2' | null {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(bodyText);
  } catch {
    return null;
  }
  const v = params.get('threeds_version');
  if (v !== null) {
    if (/^2(\.\d+){0,2}$/.test(v)) return '2';
    if (/^1(\.0(\.2)?)?$/.test(v)) return '1.0.2';
    return null;
  }
  for (const k of params.keys()) if (/^browser[A-Z]/.test(k) || k.startsWith('customer_browser_')) return '2';
  return null;
}

function fitsStep(a: AttemptRecord, step: CheckStep): boolean {
  // A request refused before its scheme was read (scheme null) may still be an attempt at it.
  return (
    a.opPath === step.operation &&
    (step.scheme === undefined || a.scheme === null || a.scheme === step.scheme)
  );
}

/**
 * Whether a request counts as an attempt at an exercise: its operation, signed with the exercise's
 * scheme, and for a 3-D Secure exercise a request that asks for that version (a plain sale, refused
 * or not, is no attempt at a 3-D Secure 2 sale).
 */
export function attemptFits(a: AttemptRecord, check: Check): boolean {
  // A refusal the trainer caused (a key restore) is no attempt of the trainee's.
  if (a.cause) return false;
  switch (check.kind) {
    case 'accepted':
      return fitsStep(a, check);
    case 'approved':
      if (!fitsStep(a, check)) return false;
      if (check.threeDs === '2') return a.tds === '2';
      if (check.threeDs === '1.0.2') return a.tds !== '2';
      return true;
    case 'sequence':
      return check.steps.some((s) => fitsStep(a, s));
    case 'diagnose-then-fix':
      return fitsStep(a, check.then);
    case 'remaining':
      return a.opPath === 'v2/preauth' || a.opPath === 'v2/capture' || a.opPath === 'v2/return';
  }
}
