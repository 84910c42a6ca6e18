import type { FastifyInstance } from 'fastify';
import type { CryptoPort } from '../src/core/index.ts';
import { generateKeyPair } from '../src/core/keys/key-containers.ts';
import { ThrowawayMerchantRequestSchema, type ThrowawayMerchant } from '../src/contracts/sandbox-merchant.ts';
import { decodeUtf8 } from './http-input.ts';
import { createMerchant, type MerchantRegistry } from './merchants.ts';
import { encodeJsonBody } from './replies.ts';
import type { SandboxStore } from './store.ts';

export interface ThrowawayMerchantDeps {
  store: SandboxStore;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
  clock: () => number;
}

/**
 * `POST /sandbox/merchants`: a fresh merchant for a capsule's replay, with a key pair of its own
 * (the sandbox made it, so it may hand out the private half, as `/sandbox/demo-merchant` does: the
 * route is loopback only and closed in classroom mode). Kept like a trainee's merchant.
 */
export function registerThrowawayMerchantRoute(app: FastifyInstance, deps: ThrowawayMerchantDeps): void {
  app.post('/merchants', { config: { access: 'sandbox-admin' } }, async (request, reply) => {
    const json = (code: number, body: Record<string, unknown>) =>
      reply
        .code(code)
        .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
        .send(encodeJsonBody(body));
    const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : undefined;
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const body = ThrowawayMerchantRequestSchema.safeParse(parsed);
    if (!body.success)
      return json(400, {
        type: 'validation-error',
        'error-message':
          'Send a JSON body {"purpose": "replay"}: the sandbox makes the merchant and its keys.',
        'error-code': 'VALIDATION',
      });
    if (deps.store.isClosed)
      return json(503, {
        type: 'error',
        'error-message': 'The sandbox is shutting down.',
        'error-code': 'INTERNAL',
      });
    const pair = await generateKeyPair(2048, deps.crypto);
    const m = await createMerchant(deps.store, deps.merchants, deps.crypto, {
      loginPrefix: body.data.purpose,
      publicKeyPem: pair.spkiPem,
      now: deps.clock(),
    });
    const answer: ThrowawayMerchant = {
      login: m.login,
      controlKey: m.controlKey,
      endpointId: m.endpointIds[0]!,
      endpointGroupId: m.endpointGroupIds[0]!,
      privateKeyPkcs8Pem: pair.pkcs8Pem,
      publicKeyPem: pair.spkiPem,
    };
    return json(201, { ...answer });
  });
}
