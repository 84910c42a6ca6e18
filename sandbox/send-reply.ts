import type { FastifyReply } from 'fastify';
import { encodeJsonBody, encodeReply, PAY_JSON, type ApiReply, type Dialect } from './replies.ts';

/** The headers every sandbox answer carries, besides the reply's own. */
export function replyHeaders(r: ApiReply, type: string): Record<string, string> {
  return {
    ...(r.headers ?? {}),
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** A reply as JSON (the operations' media type unless `type` says otherwise). */
export function sendJson(reply: FastifyReply, r: ApiReply, type = PAY_JSON): FastifyReply {
  return reply.code(r.code).headers(replyHeaders(r, type)).send(encodeJsonBody(r.body));
}

/** An operation's answer, in the dialect the request asked for (replies.ts, `encodeReply`). */
export function sendAnswer(reply: FastifyReply, r: ApiReply, dialect: Dialect): FastifyReply {
  const encoded = encodeReply(r, dialect);
  return reply.code(encoded.status).headers(replyHeaders(r, encoded.contentType)).send(encoded.body);
}
