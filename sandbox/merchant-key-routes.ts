import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isPayError, type CryptoPort } from '../src/core/index.ts';
import { importVerifyingKey } from '../src/core/keys/key-containers.ts';
import { decodeUtf8 } from './http-input.ts';
import type { MerchantRegistry } from './merchants.ts';
import { shorten } from './replies.ts';
import { sendJson } from './send-reply.ts';
import type { SandboxStore } from './store.ts';

const publicKeyBody = z.object({ publicKeyPem: z.string().min(1).max(20_000) });

/**
 * The merchant routes: the demo merchant's settings (for the console's first profile), and a
 * merchant's verifying key registered at run time (`PUT`) or given back to its configured one
 * (`DELETE`), kept in the store so it outlives a restart.
 */
export function registerMerchantKeyRoutes(
  app: FastifyInstance,
  {
    store,
    merchants,
    crypto,
    clock,
  }: {
    store: SandboxStore;
    merchants: MerchantRegistry;
    crypto: CryptoPort;
    clock: () => number;
  },
): void {
  app.get('/demo-merchant', { config: { access: 'sandbox-admin' } }, async (_request, reply) => {
    const m = merchants.first();
    const pairMatches = m.privateKeyPkcs8Pem !== null && m.privateKeyFingerprint === m.keyFingerprint;
    return sendJson(
      reply,
      {
        code: 200,
        body: {
          login: m.login,
          controlKey: m.controlKey,
          endpointIds: m.endpointIds,
          endpointGroupIds: m.endpointGroupIds,
          privateKeyPkcs8Pem: pairMatches ? m.privateKeyPkcs8Pem : null,
          publicKeyPem: m.publicKeyPem,
          keyFingerprint: m.keyFingerprint,
          keyBits: m.keyBits,
          demo: m.demo,
        },
      },
      'application/json',
    );
  });

  /** The common start of the key routes: a known merchant, a store still open. */
  const keyRoute = (request: FastifyRequest<{ Params: { login: string } }>, reply: FastifyReply) => {
    const json = (code: number, body: Record<string, unknown>) =>
      sendJson(reply, { code, body }, 'application/json');
    const merchant = merchants.byLogin(request.params.login);
    if (!merchant)
      return {
        done: json(404, {
          type: 'error',
          'error-message': `No merchant "${shorten(request.params.login, 64)}" in this sandbox.`,
          'error-code': 'NOT_FOUND',
        }),
      };
    if (store.isClosed)
      return {
        done: json(503, {
          type: 'error',
          'error-message': 'The sandbox is shutting down.',
          'error-code': 'INTERNAL',
        }),
      };
    return { merchant, json };
  };

  const keyAccess = { config: { access: 'merchant-key' } } as const;
  app.put<{ Params: { login: string } }>(
    '/merchants/:login/public-key',
    keyAccess,
    async (request, reply) => {
      const route = keyRoute(request, reply);
      if ('done' in route) return route.done;
      const { merchant, json } = route;
      const text = Buffer.isBuffer(request.body) ? decodeUtf8(request.body) : undefined;
      let parsed: unknown;
      try {
        parsed = text === undefined ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const body = publicKeyBody.safeParse(parsed);
      if (!body.success) {
        return json(400, {
          type: 'validation-error',
          'error-message': 'Send a JSON body {"publicKeyPem": "-----BEGIN PUBLIC KEY-----…"}.',
          'error-code': 'VALIDATION',
        });
      }
      let key: Awaited<ReturnType<typeof importVerifyingKey>>;
      try {
        key = await importVerifyingKey(body.data.publicKeyPem, crypto);
      } catch (e) {
        const message = isPayError(e)
          ? e.message
          : 'The key cannot be read: paste a PEM public key (BEGIN PUBLIC KEY).';
        return json(400, {
          type: 'validation-error',
          'error-message': `publicKeyPem: ${message}`,
          'error-code': 'VALIDATION',
        });
      }
      store.merchantKeys.set(merchant.login, body.data.publicKeyPem, clock());
      merchants.replace(merchant.login, {
        publicKeyPem: body.data.publicKeyPem,
        verifyKey: key.key,
        keyFingerprint: key.fingerprint,
        keyBits: key.bits,
      });
      return json(200, { login: merchant.login, keyBits: key.bits, keyFingerprint: key.fingerprint });
    },
  );

  // Undoes a PUT: the configured key (for the demo merchant, the shipped demo pair) is verified again,
  // now and after restarts. The way back when a registered key's private half was lost.
  app.delete<{ Params: { login: string } }>(
    '/merchants/:login/public-key',
    keyAccess,
    async (request, reply) => {
      const route = keyRoute(request, reply);
      if ('done' in route) return route.done;
      const { merchant, json } = route;
      const hadRegistered = store.merchantKeys.delete(merchant.login);
      const restored = merchants.restoreConfigured(merchant.login);
      return json(200, {
        login: restored.login,
        keyBits: restored.keyBits,
        keyFingerprint: restored.keyFingerprint,
        restored: hadRegistered,
        privateKeyKnown:
          restored.privateKeyPkcs8Pem !== null && restored.privateKeyFingerprint === restored.keyFingerprint,
      });
    },
  );
}
