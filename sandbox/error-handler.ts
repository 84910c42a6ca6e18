import type { FastifyError, FastifyInstance } from 'fastify';
import { dialectOf } from './http-input.ts';
import { errorReply, validationError, type AcceptMode, type ApiReply, type Dialect } from './replies.ts';
import { sendAnswer } from './send-reply.ts';

/** The answer to a request the sandbox failed on: a bug of its own, never the client's. */
export function internalError(): ApiReply {
  return errorReply(
    500,
    'The sandbox failed on this request. This is a bug in the sandbox: please report it with the operation name.',
    'INTERNAL',
  );
}

/** The answer to a body over the limit. */
export function tooLarge(bodyLimit: number): ApiReply {
  return errorReply(413, `The body is larger than ${bodyLimit} bytes: send less data.`, 'BODY_TOO_LARGE');
}

/**
 * What fastify refuses before a route runs (a body too large, a content type it cannot read) and
 * what a route throws, answered in the sandbox's error shape: an operation's refusal in the
 * request's dialect, the pages' errors in JSON. Only a failure of the sandbox is logged, by code.
 */
export function installErrorHandler(
  app: FastifyInstance,
  o: { apiPrefix: string; accept: AcceptMode; bodyLimit: number },
): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const dialect: Dialect = (request.raw.url ?? request.url).startsWith(o.apiPrefix)
      ? dialectOf(request.headers.accept, o.accept)
      : 'json';
    const send = (r: ApiReply) => sendAnswer(reply, r, dialect);
    const status = err.statusCode ?? 500;
    if (status === 413) return send(tooLarge(o.bodyLimit));
    if (status === 415 || err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(
        validationError(
          'The Content-Type header cannot be read: send application/x-www-form-urlencoded.',
          'CONTENT_TYPE',
        ),
      );
    }
    if (status >= 400 && status < 500)
      return send(errorReply(status, `The request could not be read: ${err.message}`, 'BODY_INVALID'));
    request.log.error({ code: err.code }, `sandbox: ${err.message}`);
    return send(internalError());
  });
}
