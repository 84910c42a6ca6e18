import type { FastifyInstance } from 'fastify';
import { answerCall, callOf, type OperationContext } from './answer-operation.ts';
import type { SandboxHooks } from './hooks.ts';
import { decodeUtf8, dialectOf } from './http-input.ts';
import { errorReply, shorten } from './replies.ts';
import { isReset } from './scenarios/engine-hooks.ts';
import { sendAnswer, sendJson } from './send-reply.ts';

/**
 * The gateway's own routes: the operations (`/paynet/api/*`), the hosted-fields tokenizer, and a
 * 404 for everything else under the prefix, so the console's pages never answer there.
 */
export function registerOperationRoutes(
  app: FastifyInstance,
  ctx: OperationContext,
  hooks: Pick<SandboxHooks, 'heldClientOf'>,
): void {
  const { options, engine } = ctx;
  app.all('/*', { config: { access: 'sandbox-page' } }, (request, reply) =>
    sendJson(
      reply,
      errorReply(
        404,
        `Nothing at ${request.method} ${shorten(request.url.split('?')[0]!)}: operations are POST <base>/paynet/api/<operation>/<endpointId>.`,
        'NOT_FOUND',
      ),
    ),
  );

  app.all('/paynet/api/*', { config: { access: 'gateway-api' } }, async (request, reply) => {
    const answer = await answerCall(ctx, {
      ...callOf(request),
      client: hooks.heldClientOf?.(request) ?? request.ip,
    });
    // processed-timeout: the order is committed, the client gets a reset connection.
    if (isReset(answer)) {
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return reply;
    }
    return sendAnswer(reply, answer, dialectOf(request.headers.accept, options.accept));
  });

  // The hosted-fields tokenizer, ours (engine/hosted-fields.ts): the customer's browser calls it
  // from the merchant's page, as the vendor's script would; the ticket is the credential. JSON
  // answer, form-encoded body; the card in it is never logged.
  app.post(
    '/paynet/hosted-fields/tokenize',
    { config: { access: 'sandbox-page' } },
    async (request, reply) => {
      const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : undefined;
      const input = text === undefined ? undefined : Object.fromEntries(new URLSearchParams(text));
      return sendJson(reply, engine.tokenize(input, options.clock()), 'application/json; charset=utf-8');
    },
  );
}
