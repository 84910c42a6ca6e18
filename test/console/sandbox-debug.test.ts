import { describe, expect, it } from 'vitest';
import { isSignatureRefusal, readSandboxDebug } from '../../src/features/console/answer/sandbox-debug.ts';

describe('the sandbox debug part of a refused signature', () => {
  it('recognises a refused control and a refused OAuth signature, not other refusals', () => {
    expect(isSignatureRefusal(400, { type: 'validation-error', 'error-code': 'INVALID_CONTROL_CODE' })).toBe(
      true,
    );
    expect(
      isSignatureRefusal(400, {
        type: 'validation-error',
        'error-message': 'INVALID_CONTROL_CODE: control does not match',
      }),
    ).toBe(true);
    expect(isSignatureRefusal(400, { type: 'validation-error', 'error-code': 'VALIDATION' })).toBe(false);
    expect(isSignatureRefusal(403, { type: 'error', 'error-code': 'INVALID_SIGNATURE' })).toBe(true);
    expect(isSignatureRefusal(403, '')).toBe(true);
    expect(isSignatureRefusal(403, { type: 'error', 'error-code': 'OAUTH_NONCE_REUSED' })).toBe(false);
    expect(isSignatureRefusal(200, {})).toBe(false);
  });

  it('parses both debug shapes and ignores anything else', () => {
    const control = readSandboxDebug({
      debug: {
        scheme: 'control',
        terms: [{ term: 'login', value: 'demo', source: 'profile' }],
        'signing-input': 'demo<merchant_control_key>',
      },
    });
    expect(control?.kind).toBe('control');
    const oauth = readSandboxDebug({
      debug: { scheme: 'oauth-hmac-sha1', 'base-string': 'POST&x&y', parameters: ['a=b'] },
    });
    expect(oauth?.kind).toBe('oauth');
    expect(readSandboxDebug({ debug: { scheme: 'other' } })).toBeNull();
    expect(readSandboxDebug({})).toBeNull();
  });
});
