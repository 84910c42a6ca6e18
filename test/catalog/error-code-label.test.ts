import { describe, expect, it } from 'vitest';
import { errorCodeLabel, errorReasonOf } from '../../src/catalog/index.ts';
import { RESPONSE_SCHEMAS } from '../../src/catalog/responses.ts';
import { isSignatureRefusal } from '../../src/catalog/sandbox-debug.ts';
import { ERROR_CODES } from '../../src/catalog/error-codes.ts';
import { readAnswer } from '../../src/model/read-answer.ts';

describe('an error code as every surface shows it', () => {
  it('reads "N · NAME" from a number with its reason, and either alone', () => {
    expect(errorCodeLabel({ 'error-code': 1, 'error-reason': 'VALIDATION' })).toBe('1 · VALIDATION');
    expect(errorCodeLabel({ 'error-code': '402', 'error-reason': 'INSUFFICIENT_FUNDS' })).toBe(
      '402 · INSUFFICIENT_FUNDS',
    );
    // The real gateway: a number alone. An answer recorded before numbers: a name alone.
    expect(errorCodeLabel({ 'error-code': 5 })).toBe('5');
    expect(errorCodeLabel({ 'error-code': 'VALIDATION' })).toBe('VALIDATION');
    expect(errorCodeLabel({ 'error-message': 'x' })).toBeUndefined();
    expect(errorReasonOf({ 'error-code': 3 })).toBeUndefined();
    expect(errorReasonOf({ 'error-code': 'STATE' })).toBe('STATE');
  });

  it('gives every reason of the one table a distinct number', () => {
    const numbers = ERROR_CODES.map((e) => e.code);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(ERROR_CODES.filter((e) => e.source === 'gateway').map((e) => [e.code, e.reason])).toEqual([
      [1, 'VALIDATION'],
      [5, 'DECLINED'],
    ]);
  });

  it('keeps the signature-refusal rule for numbers, names and a bare 403', () => {
    expect(isSignatureRefusal(400, { 'error-code': 201, 'error-reason': 'INVALID_CONTROL_CODE' })).toBe(true);
    expect(isSignatureRefusal(400, { 'error-code': 1, 'error-reason': 'VALIDATION' })).toBe(false);
    expect(isSignatureRefusal(403, { 'error-code': 203, 'error-reason': 'INVALID_SIGNATURE' })).toBe(true);
    expect(isSignatureRefusal(403, { 'error-code': 208, 'error-reason': 'OAUTH_NONCE_REUSED' })).toBe(false);
    expect(isSignatureRefusal(403, {})).toBe(true);
  });

  it('parses numeric codes with the response schemas and shows both in the answer view', () => {
    const body = {
      type: 'validation-error',
      'error-message': 'amount is required',
      'error-code': 1,
      'error-reason': 'VALIDATION',
    };
    expect(RESPONSE_SCHEMAS.ValidationErrorResponse.safeParse(body).success).toBe(true);
    const a = readAnswer({ response: 'AsyncResponse' }, 400, JSON.stringify(body));
    expect(a.schemaOk).toBe(true);
    expect(a.errorCode).toBe('1 · VALIDATION');
  });
});
