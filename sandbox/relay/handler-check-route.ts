import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CryptoPort } from '../../src/core/index.ts';
import { runHandlerChecks, type CheckTransport } from '../../src/diagnose/handler-check.ts';
import type { Engine } from '../engine/index.ts';
import type { MerchantRegistry } from '../merchants.ts';
import { jsonOf, readJson, refusal } from '../admin-json.ts';
import { callbackHostAllowed, hostRefusal } from './allowed-hosts.ts';

interface Deps {
  engine: Engine;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
}

const Body = z.strictObject({
  url: z.string().min(1).max(2048),
  login: z.string().min(1).max(64).optional(),
  timeoutMs: z.number().int().min(50).max(60_000).optional(),
  stateUrl: z.string().min(1).max(2048).optional(),
});

/** GETs with a timeout; a refused host never gets a request (checked before each one). */
export function relayTransport(allowed: (url: URL) => boolean): CheckTransport {
  return {
    async get(url, timeoutMs) {
      if (!allowed(new URL(url))) return { status: null, error: 'host not allowed' };
      try {
        const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel().catch(() => undefined);
        return { status: res.status };
      } catch (e) {
        return {
          status: null,
          error: (e as Error).name === 'TimeoutError' ? 'timeout' : (e as Error).message,
        };
      }
    },
  };
}

/** Reads the handler's view of an order: JSON `{"status": "…"}` or the status as plain text. */
export async function readStateAt(
  template: string,
  orderid: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const res = await fetch(template.replaceAll('{orderid}', encodeURIComponent(orderid)), {
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = (await res.text()).trim();
  if (!res.ok) return undefined;
  try {
    const parsed = z.object({ status: z.string() }).safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.status;
  } catch {
    // Plain text.
  }
  return text.slice(0, 40);
}

/**
 * `POST /sandbox/relay/handler-check`: the console's handler check, run here so the browser never
 * needs the merchant's control key or a connection to the handler; only hosts the relay may reach.
 */
export function registerHandlerCheckRoute(app: FastifyInstance, deps: Deps): void {
  const { engine, merchants, crypto } = deps;
  app.post('/relay/handler-check', { config: { access: 'sandbox-admin' } }, async (request, reply) => {
    const json = jsonOf(reply);
    const body = readJson(request, Body);
    if (!body.ok)
      return refusal(
        json,
        400,
        'VALIDATION',
        `Send {"url": "http://127.0.0.1:8080/callback"}: ${body.message}`,
      );
    const merchant = body.data.login ? merchants.byLogin(body.data.login) : merchants.first();
    if (!merchant)
      return refusal(json, 404, 'NOT_FOUND', `No merchant "${body.data.login}" in this sandbox.`);
    const allowed = (u: URL) => callbackHostAllowed(u, engine.options);
    for (const raw of [body.data.url, body.data.stateUrl]) {
      if (raw === undefined) continue;
      let u: URL;
      try {
        u = new URL(raw.replaceAll('{orderid}', '1'));
      } catch {
        return refusal(json, 400, 'VALIDATION', `"${raw.slice(0, 120)}" is not an absolute http(s) URL.`);
      }
      if (!allowed(u)) return refusal(json, 403, 'CALLBACK_HOST_REFUSED', hostRefusal(u));
    }
    const timeoutMs = body.data.timeoutMs ?? engine.options.callbackTimeoutMs;
    const stateUrl = body.data.stateUrl;
    const report = await runHandlerChecks(
      { url: body.data.url, controlKey: merchant.controlKey, timeoutMs },
      {
        transport: relayTransport(allowed),
        crypto,
        now: () => performance.now(),
        newOrderId: () => String(randomInt(1, 2 ** 47)),
        ...(stateUrl ? { readState: (orderid: string) => readStateAt(stateUrl, orderid, timeoutMs) } : {}),
      },
    );
    return json(200, { ...report });
  });
}
