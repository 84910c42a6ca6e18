import { describe, expect, it } from 'vitest';
import { collectSignatureParameters, normalizeParameters } from '../../src/core/index.ts';

// RFC 5849 §3.4.1.3.1: oauth_signature is left out wherever it appears; realm only when it is
// the Authorization header's (a body parameter named realm is an ordinary parameter).
describe('RFC 5849 §3.4.1.3.1 exclusions', () => {
  it('drops oauth_signature from the body and the header, realm only from the header', () => {
    const params = collectSignatureParameters(
      [
        { name: 'oauth_signature', value: 'from-body' },
        { name: 'realm', value: 'body-realm' },
        { name: 'a', value: '1' },
      ],
      [
        { name: 'realm', value: 'Example' },
        { name: 'oauth_signature', value: 'from-header' },
        { name: 'oauth_nonce', value: 'n' },
      ],
    );
    expect(params.filter((p) => !p.included).map((p) => `${p.source}:${p.name}`)).toEqual([
      'body:oauth_signature',
      'oauth:realm',
      'oauth:oauth_signature',
    ]);
    expect(normalizeParameters(params).joined).toBe('a=1&oauth_nonce=n&realm=body-realm');
  });
});
