import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { interpretAnswer } from '../../src/features/console/answer.ts';

const sale = findOperation('v2/sale')!;
const status = findOperation('v2/status')!;
const saleForm = findOperation('v2/sale-form')!;

describe('interpretAnswer', () => {
  it('reads an async response as accepted and pretty-prints it', () => {
    const body =
      '{"type":"async-response","serial-number":"s1","merchant-order-id":"inv-1","paynet-order-id":"77","end-point-id":"1111"}';
    const a = interpretAnswer(sale, 200, body);
    expect(a.schemaOk).toBe(true);
    expect(a.badge.kind).toBe('processing');
    expect(a.pretty).toContain('\n  "paynet-order-id": "77"');
  });

  it('shows the status of a status response and its 3DS address as a link', () => {
    const a = interpretAnswer(
      status,
      200,
      JSON.stringify({
        type: 'status-response',
        status: 'processing',
        'redirect-to': 'http://127.0.0.1:1/sandbox/acs/1',
      }),
    );
    expect(a.badge).toEqual({ kind: 'processing', label: 'processing' });
    expect(a.links).toEqual([{ label: 'Open the 3-D Secure page', url: 'http://127.0.0.1:1/sandbox/acs/1' }]);
    expect(
      interpretAnswer(
        status,
        200,
        JSON.stringify({
          type: 'status-response',
          status: 'declined',
          'error-message': 'Insufficient funds',
        }),
      ).errorMessage,
    ).toBe('Insufficient funds');
  });

  it('parses 400 with the validation-error schema and picks out the message', () => {
    const a = interpretAnswer(
      sale,
      400,
      JSON.stringify({
        type: 'validation-error',
        'error-message': 'INVALID_CONTROL_CODE',
        'error-code': '2',
      }),
    );
    expect(a.schema).toBe('ValidationErrorResponse');
    expect(a.badge.kind).toBe('validation-error');
    expect(a.errorMessage).toBe('INVALID_CONTROL_CODE');
    expect(a.errorCode).toBe('2');
  });

  it('flags a body that does not match the schema, and a body that is not JSON', () => {
    const wrong = interpretAnswer(saleForm, 200, JSON.stringify({ type: 'async-form-response' }));
    expect(wrong.schemaOk).toBe(false);
    expect(wrong.badge.kind).toBe('unparsed');
    expect(wrong.schemaIssues.join()).toContain('redirect-url');
    const text = interpretAnswer(sale, 502, 'Bad gateway');
    expect(text.isJson).toBe(false);
    expect(text.pretty).toBe('Bad gateway');
    expect(interpretAnswer(sale, 403, '').badge.kind).toBe('forbidden');
  });

  it('never offers a link that is not http(s)', () => {
    const a = interpretAnswer(
      saleForm,
      200,
      JSON.stringify({ type: 'async-form-response', 'redirect-url': 'javascript:alert(1)' }),
    );
    expect(a.links).toEqual([]);
  });
});

describe('signature refusals', () => {
  it('reads a 403 error body with the error schema', () => {
    const a = interpretAnswer(
      sale,
      403,
      JSON.stringify({ type: 'error', 'error-message': 'nonce reused', 'error-code': 'OAUTH_NONCE_REUSED' }),
    );
    expect(a.schema).toBe('ServerErrorResponse');
    expect(a.schemaOk).toBe(true);
    expect(a.badge.kind).toBe('forbidden');
  });
});
