import type { Scheme } from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';

export const SCHEME_LABEL: Record<Scheme, string> = {
  control: 'control (SHA-1)',
  'oauth-hmac-sha1': 'OAuth 1.0a HMAC-SHA1',
  'oauth-rsa-sha256': 'OAuth 1.0a RSA-SHA256',
};

/** How sure the catalog is of a scheme or formula, as the workbench labels it. */
export function provenanceLabel(
  p: Operation['formulaSource'] | Operation['schemeSource'] | undefined,
): string {
  if (p === 'unsure') return 'unsure';
  if (p === 'gateway-notes') return 'from gateway notes';
  if (p === 'assumed') return 'assumed';
  return 'from the description';
}
