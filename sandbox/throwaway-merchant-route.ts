import type { FastifyInstance } from 'fastify';
import type { CryptoPort } from '../src/core/index.ts';
import { generateKeyPair } from '../src/core/keys/key-containers.ts';
import { ThrowawayMerchantRequestSchema, type ThrowawayMerchant } from '../src/contracts/sandbox-merchant.ts';
import { ADMIN, jsonOf, readJson, refusal, whileClosed } from './admin-json.ts';
import { createMerchant, type MerchantRegistry } from './merchants.ts';
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
  app.post('/merchants', ADMIN, async (request, reply) => {
    const json = jsonOf(reply);
    // The shared reader: a body that is not JSON, or not {"purpose": "replay"}, is refused the same way.
    const body = readJson(request, ThrowawayMerchantRequestSchema);
    if (!body.ok)
      return refusal(
        json,
        400,
        'VALIDATION',
        'Send a JSON body {"purpose": "replay"}: the sandbox makes the merchant and its keys.',
      );
    const closed = whileClosed(json, deps.store.isClosed);
    if (closed) return closed;
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
