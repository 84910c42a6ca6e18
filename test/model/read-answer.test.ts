import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { describeRefusal, readAnswer } from '../../src/model/read-answer.ts';

const sale = findOperation('v2/sale')!;
const status = findOperation('v2/status')!;
const saleForm = findOperation('v2/sale-form')!;

describe('readAnswer', () => {
  it('reads an async response as accepted and pretty-prints it', () => {
    const body =
      '{"type":"async-response","serial-number":"s1","merchant-order-id":"inv-1","paynet-order-id":"77","end-point-id":"1111"}';
    const a = readAnswer(sale, 200, body);
    expect(a.schemaOk).toBe(true);
    expect(a.badge.kind).toBe('processing');
    expect(a.pretty).toContain('\n  "paynet-order-id": "77"');
  });

  it('shows the status of a status response and its 3DS address as a link', () => {
    const a = readAnswer(
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
      readAnswer(
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
    const a = readAnswer(
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
    const wrong = readAnswer(saleForm, 200, JSON.stringify({ type: 'async-form-response' }));
    expect(wrong.schemaOk).toBe(false);
    expect(wrong.badge.kind).toBe('unparsed');
    expect(wrong.schemaIssues.join()).toContain('redirect-url');
    const text = readAnswer(sale, 502, 'Bad gateway');
    expect(text.isJson).toBe(false);
    expect(text.pretty).toBe('Bad gateway');
    expect(readAnswer(sale, 403, '').badge.kind).toBe('forbidden');
  });

  it('never offers a link that is not http(s)', () => {
    const a = readAnswer(
      saleForm,
      200,
      JSON.stringify({ type: 'async-form-response', 'redirect-url': 'javascript:alert(1)' }),
    );
    expect(a.links).toEqual([]);
  });
});

describe('signature refusals', () => {
  it('reads a 403 error body with the error schema', () => {
    const a = readAnswer(
      sale,
      403,
      JSON.stringify({ type: 'error', 'error-message': 'nonce reused', 'error-code': 'OAUTH_NONCE_REUSED' }),
    );
    expect(a.schema).toBe('ServerErrorResponse');
    expect(a.schemaOk).toBe(true);
    expect(a.badge.kind).toBe('forbidden');
  });
});

describe('readAnswer: the one reader of teaching, flows and history too', () => {
  it('says whether the answer is accepted, and reads the sandbox’s own signing input from a refusal', () => {
    expect(readAnswer(sale, 200, '{"type":"async-response","paynet-order-id":"7"}').accepted).toBe(true);
    // 200 with another operation's shape is not accepted.
    expect(readAnswer(sale, 200, '{"type":"status-response","status":"approved"}').accepted).toBe(false);
    const refused = readAnswer(
      sale,
      400,
      JSON.stringify({
        type: 'validation-error',
        'error-code': 'INVALID_CONTROL_CODE',
        'error-message': 'INVALID_CONTROL_CODE: control does not match',
        debug: { scheme: 'control', formula: 'login + amount', terms: [], 'signing-input': 'demo1000***' },
      }),
    );
    expect(refused.accepted).toBe(false);
    expect(refused.signatureRefused).toBe(true);
    expect(refused.sandboxSigningInput).toEqual({
      kind: 'control',
      text: 'demo1000***',
      formula: 'login + amount',
    });
    expect(describeRefusal(refused)).toBe('INVALID_CONTROL_CODE: control does not match');
  });

  it('reads a numeric error code as text and names a bare refusal by its status', () => {
    const a = readAnswer(
      sale,
      400,
      '{"type":"validation-error","error-message":"bad amount","error-code":2}',
    );
    expect(a.errorCode).toBe('2');
    expect(describeRefusal(a)).toBe('bad amount (2)');
    expect(describeRefusal(readAnswer(sale, 403, ''))).toBe('The gateway answered HTTP 403.');
  });
});
