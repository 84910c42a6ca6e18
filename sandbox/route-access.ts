import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { canonicalPath } from './canonical-path.ts';
import { hostnameOf, isLoopbackAddress, isLoopbackHostname, isValidHost } from './http-input.ts';
import { encodeJsonBody, PAY_JSON } from './replies.ts';

/**
 * Who may call a route. Every route declares one (`config: { access }`); each server's policy says
 * what it means in that server's mode, and one hook enforces it with the route's decoded
 * parameters. See docs/security.md for the table.
 */
export type Access =
  /** The console's pages and files: whoever the server's `Host` check admits. */
  | 'page'
  /** The sandbox's customer pages (hosted form, 3-D Secure): the customer's browser. */
  | 'sandbox-page'
  /** An operation of the gateway's API (`/sandbox/paynet/api/...`). */
  | 'gateway-api'
  /** The demo merchant's credentials: this machine only; closed in classroom mode. */
  | 'sandbox-admin'
  /** Registering or restoring a merchant's public key (`/sandbox/merchants/:login/public-key`). */
  | 'merchant-key'
  /** Where a gateway delivers a callback, or a customer's browser returns (`/callbacks/:inbox`). */
  | 'callback-receiver'
  /**
   * The console's return page as a POST target (`POST /return`): the customer's browser, posted
   * from the gateway's page on another site by design. The route only renders; see docs/security.md.
   */
  | 'customer-return'
  /** Reading or clearing a callback inbox (`/callbacks/:inbox/list`, `/events`, `DELETE`). */
  | 'callback-reader'
  /** The console's proxy (`/proxy/...`). */
  | 'proxy'
  /** The classroom's join, status and trainer-login addresses. */
  | 'classroom-public'
  /** A joined trainee's own classroom view. */
  | 'trainee'
  /** The trainer's page and API. */
  | 'trainer';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route: enforced by installRouteAccess, required on every route. */
    access?: Access;
  }
}

/** Why a request is refused: status, stable code and a sentence that says what to do. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** One access rule: undefined lets the request through. */
export type AccessRule = (request: FastifyRequest) => Refusal | undefined;

/** A server's meaning of each access it serves; a route whose access is missing here fails at start. */
export type AccessPolicy = Partial<Record<Access, AccessRule>>;

/** Lets everything through (the route's handler still validates its input). */
export const open: AccessRule = () => undefined;

/** Each rule in turn; the first refusal wins. */
export function allOf(...rules: ReadonlyArray<AccessRule | undefined>): AccessRule {
  const list = rules.filter((r): r is AccessRule => r !== undefined && r !== open);
  if (list.length === 0) return open;
  if (list.length === 1) return list[0]!;
  return (request) => {
    for (const rule of list) {
      const refusal = rule(request);
      if (refusal) return refusal;
    }
    return undefined;
  };
}

/** The policy `base` with `extra` rules added after the base's own, kind by kind. */
export function extendPolicy(base: AccessPolicy, extra: AccessPolicy): AccessPolicy {
  const out: AccessPolicy = { ...base };
  for (const [kind, rule] of Object.entries(extra) as Array<[Access, AccessRule]>)
    out[kind] = allOf(base[kind], rule);
  return out;
}

const SANDBOX_ACCESS: ReadonlySet<Access | undefined> = new Set<Access>([
  'sandbox-page',
  'gateway-api',
  'sandbox-admin',
  'merchant-key',
]);

/** True for the sandbox's own routes (they answer in the gateway's shapes and set their own page policy). */
export function isSandboxAccess(access: Access | undefined): boolean {
  return SANDBOX_ACCESS.has(access);
}

function refusalBody(access: Access | undefined, r: Refusal): { type: string; body: string } {
  // The sandbox's API answers in the gateway's error shape (`type`, `error-message`, `error-code`).
  if (isSandboxAccess(access) && access !== 'sandbox-page')
    return {
      type: access === 'gateway-api' ? PAY_JSON : 'application/json; charset=utf-8',
      body: encodeJsonBody({
        type: r.status === 400 ? 'validation-error' : 'error',
        'error-message': r.message,
        'error-code': r.code,
      }).toString(),
    };
  return {
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({ error: { code: r.code, message: r.message } }),
  };
}

/** Sends a refusal in the shape the route's clients read. */
export function sendRefusal(reply: FastifyReply, access: Access | undefined, r: Refusal): FastifyReply {
  const { type, body } = refusalBody(access, r);
  return reply.code(r.status).type(type).header('cache-control', 'no-store').send(body);
}

function describeRoute(route: RouteOptions): string {
  return `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
}

/**
 * Makes `policy` the server's access rules: a route registered after this without a declared access,
 * or with one the policy does not define, fails the server's start; every request's path must be
 * canonical (else 400 PATH_INVALID); then the matched route's rule decides, on the route's decoded
 * parameters. Requests that match no route reach only the not-found handlers, which serve nothing
 * of anyone's.
 */
export function installRouteAccess(app: FastifyInstance, policy: AccessPolicy): void {
  const table: RouteEntry[] = [];
  app.decorate(ACCESS_DECORATOR, table);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined)
      throw new Error(
        `Route ${describeRoute(route)} declares no access: add config: { access: '…' } (sandbox/route-access.ts).`,
      );
    if (!policy[access])
      throw new Error(
        `Route ${describeRoute(route)} declares access '${access}', which this server's policy does not define.`,
      );
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access });
  });
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access;
    const path = canonicalPath(request.raw.url ?? request.url);
    if (!path.ok) return sendRefusal(reply, access, { status: 400, code: path.code, message: path.message });
    if (access === undefined) return undefined;
    const refusal = policy[access]!(request);
    return refusal ? sendRefusal(reply, access, refusal) : undefined;
  });
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHostname(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** This machine only: loopback peer, loopback `Host` (no DNS rebinding), loopback or no `Origin`. */
export const loopbackOnly: AccessRule = (request) => {
  const host = request.headers.host;
  const origin = request.headers.origin;
  const ok =
    isLoopbackAddress(request.socket.remoteAddress) &&
    isValidHost(host) &&
    isLoopbackHostname(hostnameOf(host)) &&
    (origin === undefined || isLoopbackOrigin(origin));
  return ok
    ? undefined
    : {
        status: 403,
        code: 'FORBIDDEN',
        message:
          'This address answers only requests made on this machine (loopback host and origin): it hands out merchant keys.',
      };
};

/** The stand-alone sandbox's policy (`npm run sandbox`), and the base of the console's. */
export const SANDBOX_POLICY: AccessPolicy = {
  'sandbox-page': open,
  'gateway-api': open,
  'sandbox-admin': loopbackOnly,
  'merchant-key': loopbackOnly,
};

const ACCESS_DECORATOR = 'routeAccess';

/** True when a server has installed its access rules (a plugin with routes checks it when registered). */
export function hasRouteAccess(app: FastifyInstance): boolean {
  return app.hasDecorator(ACCESS_DECORATOR);
}

/** One route as the router serves it, with its declared access. */
export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

/** Every route of a server with installRouteAccess, as registered (tests walk it; see docs/security.md). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return (app as unknown as Record<string, RouteEntry[]>)[ACCESS_DECORATOR] ?? [];
}
