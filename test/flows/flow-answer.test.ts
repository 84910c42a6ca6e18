/**
 * What a flow step takes from an answer (src/features/flows/flow-answer.ts), read by the model's
 * one reader: a step goes on only with a JSON answer of HTTP 200 that is not a refusal and fits the
 * catalog's schema, and its timeline entry says why not otherwise. No sandbox: answers as text.
 */
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../src/catalog/index.ts';
import { readFlowAnswer, summarize } from '../../src/features/flows/flow-answer.ts';
import { textOf } from '../../src/features/flows/flow-vars.ts';
import { readAnswer } from '../../src/model/read-answer.ts';

const status = findOperation('v2/status')!;
const read = (httpStatus: number, body: unknown) =>
  readFlowAnswer(
    readAnswer(status, httpStatus, typeof body === 'string' ? body : JSON.stringify(body)),
    12.5,
  );

describe('readFlowAnswer', () => {
  it('takes a status answer that fits its schema, and sums it up for the timeline', () => {
    const r = read(200, {
      type: 'status-response',
      status: 'approved',
      'paynet-order-id': 7,
      'card-ref-id': '',
      'masked-card-number': '444444******4448',
    });
    expect(r).toEqual({
      ok: true,
      json: expect.objectContaining({ status: 'approved' }),
      entry: {
        httpStatus: 200,
        elapsedMs: 12.5,
        type: 'status-response',
        ok: true,
        summary: 'status approved, paynet-order-id 7, masked-card-number 444444******4448',
      },
    });
  });

  it('fails on an answer that is not JSON, and says where to look', () => {
    expect(read(200, '<html>proxy page</html>')).toEqual({
      ok: false,
      message: "The answer (HTTP 200) is not JSON: check the target's base URL.",
      entry: { httpStatus: 200, elapsedMs: 12.5, summary: 'not JSON', ok: false },
    });
  });

  it('fails on a refusal with the gateway’s message and code', () => {
    const r = read(400, {
      type: 'validation-error',
      'error-message': 'amount 500.00 is more than what is left to capture',
      'error-code': 304,
      'error-reason': 'STATE',
    });
    expect(r.ok).toBe(false);
    expect(r.entry).toMatchObject({ httpStatus: 400, type: 'validation-error', ok: false });
    expect(!r.ok && r.message).toMatch(/^amount 500\.00 is more than what is left to capture \(304/);
    expect(r.entry.summary).toBe(!r.ok && r.message);
  });

  it('fails on an answer of HTTP 200 that is not the operation’s', () => {
    const r = read(200, { type: 'status-response' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/^The answer is not a StatusResponse: /);
    expect(r.entry).toMatchObject({ httpStatus: 200, ok: false });
  });
});

describe('answer fields as text', () => {
  it('keeps strings and numbers, not empty strings nor anything else', () => {
    expect([textOf('a'), textOf(7), textOf(''), textOf(null), textOf({}), textOf(undefined)]).toEqual([
      'a',
      '7',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(summarize({ status: 'processing', 'threeds-comp-ind': 'Y', other: 'x' })).toBe(
      'status processing, threeds-comp-ind Y',
    );
  });
});
