import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeParse, type $ZodType, type output } from 'zod/v4/core';
import { decodeUtf8 } from './http-input.ts';
import { encodeJsonBody } from './replies.ts';

/**
 * What the sandbox's admin routes share (the scenario lab's, the test clock's, the relay's): their
 * access rule, their JSON answer and error shape, and how they read a JSON body.
 */
export const ADMIN = { config: { access: 'sandbox-admin' } } as const;

export type Json = (code: number, body: Record<string, unknown>) => FastifyReply;

export function jsonOf(reply: FastifyReply): Json {
  return (code, body) =>
    reply
      .code(code)
      .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      .send(encodeJsonBody(body));
}

/** The sandbox's error shape (as its other admin routes answer): a stable code and what to do. */
export function refusal(json: Json, code: number, errorCode: string, message: string): FastifyReply {
  return json(code, {
    type: code === 400 ? 'validation-error' : 'error',
    'error-message': message,
    'error-code': errorCode,
  });
}

/** The 404 of a route that names a merchant the sandbox does not have. */
export function noMerchant(json: Json, login: string): FastifyReply {
  return refusal(json, 404, 'NOT_FOUND', `No merchant "${login.slice(0, 64)}" in this sandbox.`);
}

/** The 503 of a write while the sandbox shuts down; undefined while it runs. */
export function whileClosed(json: Json, isClosed: boolean): FastifyReply | undefined {
  return isClosed ? refusal(json, 503, 'INTERNAL', 'The sandbox is shutting down.') : undefined;
}

/** Reads a JSON body with a schema (classic zod or zod/mini); an empty body reads as `{}`. */
export function readJson<T extends $ZodType>(
  request: FastifyRequest,
  schema: T,
): { ok: true; data: output<T> } | { ok: false; message: string } {
  const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : undefined;
  let parsed: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, message: 'The body is not JSON.' };
    }
  }
  const r = safeParse(schema, parsed);
  if (r.success) return { ok: true, data: r.data };
  return {
    ok: false,
    message: r.error.issues
      .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; '),
  };
}
