import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { z } from 'zod';
import {
  isPayError,
  type CryptoPort,
  checkEndpointId,
  INT64_MAX,
  type EndpointRef,
  type Scheme,
} from '../src/core/index.ts';
import { importVerifyingKey } from '../src/core/keys/key-containers.ts';
import { matchOperationPath } from '../src/capture/index.ts';
import { findOperation, OPERATION_PATHS, type Operation } from '../src/catalog/index.ts';
import { requestAccepted, requestSchema } from '../src/catalog/request-schema.ts';
import { identifyCapture } from '../src/capture/identify-capture.ts';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { authenticate, isVerified } from './authenticate.ts';
import type { Engine } from './engine/index.ts';
import { composeSandbox } from './compose.ts';
import {
  acceptsPayJson,
  decodeUtf8,
  dialectOf,
  isFormContentType,
  isValidHost,
  isEmptyBody,
  readFormBody,
} from './http-input.ts';
import { createMerchant, type Merchant, type MerchantRegistry } from './merchants.ts';
import { resolveSandboxOptions, type ResolvedSandboxOptions, type SandboxOptions } from './options.ts';
import { registerPages } from './pages.ts';
import {
  encodeJsonBody,
  encodeReply,
  errorReply,
  PAY_JSON,
  validationError,
  type ApiReply,
  type Dialect,
} from './replies.ts';
import { fromMinorUnits } from './outcomes.ts';
import type { HttpCall } from './hooks.ts';
import { hasRouteAccess } from './route-access.ts';
import { chooseScenario, scenarioHeaderOf } from './scenarios/choose.ts';
import { heldMsOf, isReset, shapeAnswer, timerSleep } from './scenarios/engine-hooks.ts';
import { HeldBudget, type Release } from './held-budget.ts';
import { registerClockRoutes } from './scenarios/clock-routes.ts';
import { registerScenarioRoutes } from './scenarios/scenario-routes.ts';
import { registerRelayRoutes } from './relay/relay-routes.ts';
import type { ScenarioStore } from './scenarios/scenario-store.ts';
import { registerThrowawayMerchantRoute } from './throwaway-merchant-route.ts';
import type { ScenarioChoice } from '../src/catalog/scenarios.ts';

export type { SandboxOptions } from './options.ts';

/** The headers every sandbox answer carries, besides the reply's own. */
function replyHeaders(r: ApiReply, type: string): Record<string, string> {
  return {
    ...(r.headers ?? {}),
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

function sendJson(reply: FastifyReply, r: ApiReply, type = PAY_JSON): FastifyReply {
  return reply.code(r.code).headers(replyHeaders(r, type)).send(encodeJsonBody(r.body));
}

/** An operation's answer, in the dialect the request asked for (replies.ts, `encodeReply`). */
function sendAnswer(reply: FastifyReply, r: ApiReply, dialect: Dialect): FastifyReply {
  const encoded = encodeReply(r, dialect);
  return reply.code(encoded.status).headers(replyHeaders(r, encoded.contentType)).send(encoded.body);
}

function shorten(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Formats zod issues of the catalog's request schema: each sentence names its field. */
function describeIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): string {
  return issues
    .map((i) => {
      const field = i.path.map(String).join('.');
      return field && !i.message.startsWith(field) ? `${field}: ${i.message}` : i.message;
    })
    .join(' ');
}

const publicKeyBody = z.object({ publicKeyPem: z.string().min(1).max(20_000) });

interface Context {
  options: ResolvedSandboxOptions;
  engine: Engine;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
  schemas: Map<string, ReturnType<typeof requestSchema>>;
  /** The sandbox's clock as a date, for the expiry checks. */
  now: () => Date;
  /** `<plugin prefix>/paynet`: the path part of the sandbox's base URL (its pages live under it). */
  basePath: string;
  /** Every base path an operation is answered at: {@link basePath} and the embedder's aliases. */
  basePaths: ReadonlySet<string>;
  lab: ScenarioStore;
  held: HeldBudget;
}

/** What answerOperation learned on the way, for the `onAttempt` hook. */
interface Seen {
  op?: Operation;
  merchant?: Merchant;
  endpoint?: EndpointRef;
  scheme?: Scheme;
  url: string;
  bodyText: string;
  authenticated: boolean;
  /** The scenarios in force (sandbox/scenarios/): the answer is shaped by them. */
  scenario?: ScenarioChoice | undefined;
  /** The call's slot in the budget of held answers, given back once it is answered. */
  release?: Release;
}

/** The parts of an HTTP request an operation call is answered from. */
export function callOf(request: FastifyRequest): HttpCall {
  const h = request.headers;
  return {
    method: request.method,
    scheme: request.protocol,
    path: (request.raw.url ?? request.url).split('?')[0]!,
    headers: {
      accept: h.accept,
      'content-type': h['content-type'],
      host: h.host,
      authorization: h.authorization,
      'x-sandbox-scenario': scenarioHeaderOf(h),
    },
    body: request.body,
    client: request.ip,
  };
}

/** The amount (major units) and currency of one of the merchant's orders, for a full capture's control. */
function orderAmountOf(
  ctx: Context,
  merchant: Merchant,
  orderid: string,
): { amount: string; currency: string } | undefined {
  if (!/^\d{1,15}$/.test(orderid)) return undefined;
  const order = ctx.engine.store.orders.get(Number(orderid));
  if (!order || order.merchant !== merchant.login || order.currency === null) return undefined;
  return { amount: fromMinorUnits(order.amount_minor), currency: order.currency };
}

async function answerOperation(request: HttpCall, ctx: Context, seen: Seen): Promise<ApiReply> {
  if (request.method !== 'POST') {
    return {
      ...errorReply(405, `Operations are called with POST (got ${request.method}).`, 'METHOD_NOT_ALLOWED'),
      headers: { allow: 'POST' },
    };
  }
  if (ctx.options.accept === 'strict' && !acceptsPayJson(request.headers.accept)) {
    return validationError(
      'Send the header "Accept: application/vnd.pay+json": every operation requires it, and the sandbox answers only JSON of that type.',
      'ACCEPT_REQUIRED',
    );
  }
  const rawPath = request.path;
  let match: ReturnType<typeof matchOperationPath>;
  try {
    match = matchOperationPath(rawPath, OPERATION_PATHS);
  } catch {
    match = undefined;
  }
  const op: Operation | undefined =
    match && ctx.basePaths.has(match.prefix) ? findOperation(match.path) : undefined;
  if (!match || !op) {
    return errorReply(
      404,
      `No operation at ${shorten(rawPath)}: use POST <base>/api/<operation>/<endpointId> (or …/group/<endpointGroupId>), e.g. /paynet/api/v2/sale/1111.`,
      'UNKNOWN_OPERATION',
    );
  }
  const endpoint: EndpointRef = match.endpoint;
  const endpointText = endpoint.kind === 'group' ? 'endpoint group' : 'endpoint';
  const endpointProblem = checkEndpointId(endpoint);
  if (endpointProblem) {
    return validationError(
      endpointProblem.code === 'ENDPOINT_OUT_OF_RANGE'
        ? `The ${endpointText} id ${shorten(endpoint.id, 40)} in the path is larger than the largest int64 (${INT64_MAX}).`
        : `The ${endpointText} id "${shorten(endpoint.id, 40)}" in the path must be a whole number, e.g. 1111.`,
      'ENDPOINT_INVALID',
    );
  }
  const merchant = ctx.merchants.byEndpoint(endpoint);
  seen.op = op;
  seen.endpoint = endpoint;
  if (merchant) seen.merchant = merchant;
  if (!merchant) {
    return validationError(
      `${endpointText[0]!.toUpperCase()}${endpointText.slice(1)} ${endpoint.id} is not configured in this sandbox: use one of your merchant's endpoints (the demo merchant has endpoint 1111 and group 2222).`,
      'ENDPOINT_UNKNOWN',
    );
  }
  // An operation sent with no body at all (the vendor's ticket call) needs no form content type.
  const bodyless = op.emptyBody === true && isEmptyBody(request.body);
  if (!bodyless && !isFormContentType(request.headers['content-type'])) {
    return validationError(
      `Send the body as Content-Type: application/x-www-form-urlencoded (got ${request.headers['content-type'] ? `"${shorten(request.headers['content-type'], 60)}"` : 'none'}).`,
      'CONTENT_TYPE',
    );
  }
  const host = request.headers.host;
  if (!isValidHost(host)) {
    return validationError(
      'The Host header is missing or not a host name: the signed URL is rebuilt from it.',
      'HOST_INVALID',
    );
  }
  const read = readFormBody(request.body, op.emptyBody === true);
  if (!read.ok) return read.reply;
  const { params, pairs, text } = read.body;
  seen.bodyText = text;
  // The URL the client signed: the scheme it connected with (HTTPS on `npm run sandbox` with SANDBOX_HTTPS=1).
  const origin = `${request.scheme ?? 'http'}://${host}`;
  seen.url = `${origin}${rawPath}`;

  // The catalog's rules without zod first; the schema words the answer when they refuse.
  if (!requestAccepted(op, params, ctx.now)) {
    let schema = ctx.schemas.get(op.id);
    if (!schema) {
      schema = requestSchema(op, ctx.now);
      ctx.schemas.set(op.id, schema);
    }
    const checked = schema.safeParse(Object.fromEntries(params));
    if (!checked.success) return validationError(describeIssues(checked.error.issues), 'VALIDATION');
  }

  const login = params.get('login');
  if (login !== undefined && login !== '' && login !== merchant.login) {
    return validationError(
      `login "${shorten(login, 64)}" is not the merchant that owns ${endpointText} ${endpoint.id}: send your own login, to one of your own endpoints.`,
      'LOGIN_MISMATCH',
    );
  }

  const now = ctx.options.clock();
  // The route gave the operation and endpoint: only the scheme is read from the request.
  const { scheme } = identifyCapture(
    { url: seen.url, authorization: request.headers.authorization, body: pairs },
    { operation: op, endpoint },
  );
  seen.scheme = scheme;
  const verdict = await authenticate(
    {
      op,
      merchant,
      endpoint,
      url: `${origin}${rawPath}`,
      bodyText: text,
      pairs,
      params,
      authorization: request.headers.authorization,
      scheme,
    },
    {
      crypto: ctx.crypto,
      now,
      timestampWindowSec: ctx.options.timestampWindowSec,
      debug: ctx.options.debug,
      ...(ctx.options.fullCaptureControl === 'order'
        ? { orderAmount: (orderid: string) => orderAmountOf(ctx, merchant, orderid) }
        : {}),
    },
  );
  if (!isVerified(verdict)) return verdict;
  seen.authenticated = true;
  if (ctx.engine.store.isClosed)
    return errorReply(503, 'The sandbox is shutting down: retry in a moment.', 'INTERNAL');
  const chosen = chooseScenario(
    ctx.lab,
    request.headers['x-sandbox-scenario'],
    merchant.login,
    ctx.options.scenarioHeader,
  );
  if ('refused' in chosen) return chosen.refused;
  // A held answer keeps its client's connection open: beyond the client's budget, refused at once
  // and before anything is done (held-budget.ts).
  const heldMs = heldMsOf(chosen.choice);
  if (heldMs > 0) {
    const client = request.client ?? 'in-process';
    const release = ctx.held.take(client, heldMs);
    if (!release) return ctx.held.refusal(client);
    seen.release = release;
  }
  seen.scenario = chosen.choice;
  // Synchronous from here: the nonce claim, what is due and the operation share one transaction.
  return ctx.engine.run(
    {
      op,
      merchant,
      endpoint,
      endPointId: ctx.merchants.endPointIdFor(merchant, endpoint),
      params,
      now: ctx.options.clock(),
      // The pages live under the plugin's own base path, whichever alias the call came by.
      pageBase: `${origin}${ctx.basePath}`,
      scenario: chosen.choice,
    },
    verdict.nonce,
  );
}

/**
 * The local gateway sandbox as a fastify plugin. Register it under a prefix (the console uses
 * `/sandbox`); its base URL is then `http://<host><prefix>/paynet`.
 */
export const sandboxPlugin: FastifyPluginAsync<SandboxOptions> = async (
  app: FastifyInstance,
  opts: SandboxOptions,
) => {
  if (!hasRouteAccess(app))
    throw new Error('The sandbox needs its server to enforce route access: call installRouteAccess first.');
  const options = resolveSandboxOptions(opts);
  // node:crypto: synchronous hashing, no thread-pool hop per request (Web Crypto costs 10× more here).
  const crypto = nodeCryptoPort();
  const { store, merchants, lab, engine, scheduler, close } = await composeSandbox(
    options,
    crypto,
    (message) => app.log.error(message),
  );
  scheduler.start();
  app.addHook('onClose', close);
  const ctx: Context = {
    options,
    engine,
    merchants,
    crypto,
    schemas: new Map(),
    now: () => new Date(options.clock()),
    basePath: `${app.prefix}/paynet`,
    basePaths: new Set([`${app.prefix}/paynet`, ...options.aliasBasePaths]),
    lab,
    held: new HeldBudget(options.heldPerClient, options.heldTotal),
  };

  // Every body arrives as raw bytes: the signature is checked over the exact text that was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, (_request, body, done) =>
    done(null, body),
  );

  const internalError = () =>
    errorReply(
      500,
      'The sandbox failed on this request. This is a bug in the sandbox: please report it with the operation name.',
      'INTERNAL',
    );
  const tooLarge = () =>
    errorReply(413, `The body is larger than ${options.bodyLimit} bytes: send less data.`, 'BODY_TOO_LARGE');
  const apiPrefix = `${ctx.basePath}/api/`;
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // An operation's refusal speaks the request's dialect; the pages' errors stay JSON.
    const dialect: Dialect = (request.raw.url ?? request.url).startsWith(apiPrefix)
      ? dialectOf(request.headers.accept, options.accept)
      : 'json';
    const send = (r: ApiReply) => sendAnswer(reply, r, dialect);
    const status = err.statusCode ?? 500;
    if (status === 413) return send(tooLarge());
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

  // Everything else under the prefix: a route of its own, so the console's pages never answer here.
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

  // Engine.run finalises what is due in the operation's own transaction, before it runs.
  const answerCall = async (call: HttpCall): Promise<ApiReply> => {
    const seen: Seen = { url: '', bodyText: '', authenticated: false };
    let answer: ApiReply;
    try {
      answer = await shapeAnswer(
        await answerOperation(call, ctx, seen),
        seen.scenario,
        opts.scenarioSleep ?? timerSleep,
      );
    } finally {
      seen.release?.();
    }
    if (opts.onAttempt) {
      opts.onAttempt({
        at: options.clock(),
        merchant: seen.merchant,
        opPath: seen.op?.path,
        scheme: seen.scheme,
        endpoint: seen.endpoint,
        url: seen.url,
        bodyText: seen.bodyText,
        authorization: call.headers.authorization,
        authenticated: seen.authenticated,
        reply: answer,
      });
    }
    return answer;
  };
  app.all('/paynet/api/*', { config: { access: 'gateway-api' } }, async (request, reply) => {
    const answer = await answerCall({
      ...callOf(request),
      client: opts.heldClientOf?.(request) ?? request.ip,
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

  registerPages(app, { engine, scheduler, merchants, crypto });
  // The admin routes, one module per room: the scenario lab's, the test clock's, the relay's.
  registerScenarioRoutes(app, { engine, merchants, lab });
  registerClockRoutes(app, { engine, scheduler, merchants, lab });
  registerRelayRoutes(app, { engine, scheduler, merchants, crypto });
  registerThrowawayMerchantRoute(app, { store, merchants, crypto, clock: options.clock });

  opts.onReady?.({
    store,
    merchants,
    crypto,
    createMerchant: (input) => createMerchant(store, merchants, crypto, { ...input, now: options.clock() }),
    finalizeDue: () => scheduler.finalizeDue(),
    clock: options.clock,
    answer: async (call) => {
      const body = Buffer.isBuffer(call.body) ? call.body : undefined;
      let r: ApiReply;
      try {
        r = body && body.byteLength > options.bodyLimit ? tooLarge() : await answerCall(call);
      } catch (e) {
        app.log.error({ code: (e as FastifyError).code }, `sandbox: ${(e as Error).message}`);
        r = internalError();
      }
      const encoded = encodeReply(r, dialectOf(call.headers.accept, options.accept));
      return {
        status: encoded.status,
        headers: replyHeaders(r, encoded.contentType),
        body: encoded.body,
        ...(isReset(r) ? { reset: true as const } : {}),
      };
    },
    apiPath: apiPrefix,
    setMerchantScenario: (login, choice) => lab.setMerchantChoice(login, choice, options.clock()),
    merchantScenario: (login) => lab.merchantChoice(login),
  });

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
      store.merchantKeys.set(merchant.login, body.data.publicKeyPem, options.clock());
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
};
