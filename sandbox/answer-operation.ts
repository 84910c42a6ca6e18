import type { FastifyError, FastifyRequest } from 'fastify';
import {
  checkEndpointId,
  INT64_MAX,
  type CryptoPort,
  type EndpointRef,
  type Scheme,
} from '../src/core/index.ts';
import { matchOperationPath } from '../src/capture/index.ts';
import { identifyCapture } from '../src/capture/identify-capture.ts';
import { findOperation, OPERATION_PATHS, type Operation } from '../src/catalog/index.ts';
import { requestAccepted, requestSchema } from '../src/catalog/request-schema.ts';
import type { ScenarioChoice } from '../src/catalog/scenarios.ts';
import { authenticate, isVerified } from './authenticate.ts';
import type { Engine } from './engine/index.ts';
import { internalError, tooLarge } from './error-handler.ts';
import type { HeldBudget, Release } from './held-budget.ts';
import type { HttpCall, OperationAnswer, SandboxHooks } from './hooks.ts';
import {
  acceptsPayJson,
  dialectOf,
  isEmptyBody,
  isFormContentType,
  isValidHost,
  readFormBody,
} from './http-input.ts';
import type { Merchant, MerchantRegistry } from './merchants.ts';
import type { ResolvedSandboxOptions } from './options.ts';
import { fromMinorUnits } from './outcomes.ts';
import { encodeReply, errorReply, shorten, validationError, type ApiReply } from './replies.ts';
import { chooseScenario, scenarioHeaderOf } from './scenarios/choose.ts';
import { heldMsOf, isReset, shapeAnswer, timerSleep } from './scenarios/engine-hooks.ts';
import type { ScenarioStore } from './scenarios/scenario-store.ts';
import { replyHeaders } from './send-reply.ts';

/**
 * How the sandbox answers one operation call, over HTTP (`operation-routes.ts`) or without it (an
 * embedder's `answer`): the path, the endpoint, the body, the catalog's rules, the signature, the
 * scenario, then the engine. Everything on the way is recorded for the `onAttempt` hook.
 */

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

/** What an operation call is answered with: the sandbox's parts and its settings. */
export interface OperationContext {
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
  /** The embedder's hooks an answer goes through (sandbox/hooks.ts). */
  hooks: Pick<SandboxHooks, 'onAttempt' | 'scenarioSleep'>;
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
  ctx: OperationContext,
  merchant: Merchant,
  orderid: string,
): { amount: string; currency: string } | undefined {
  if (!/^\d{1,15}$/.test(orderid)) return undefined;
  const order = ctx.engine.store.orders.get(Number(orderid));
  if (!order || order.merchant !== merchant.login || order.currency === null) return undefined;
  return { amount: fromMinorUnits(order.amount_minor), currency: order.currency };
}

async function answerOperation(request: HttpCall, ctx: OperationContext, seen: Seen): Promise<ApiReply> {
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

/** Answers an operation call, through the scenarios' shaping and the `onAttempt` hook. */
export async function answerCall(ctx: OperationContext, call: HttpCall): Promise<ApiReply> {
  const seen: Seen = { url: '', bodyText: '', authenticated: false };
  let answer: ApiReply;
  try {
    // Engine.run finalises what is due in the operation's own transaction, before it runs.
    answer = await shapeAnswer(
      await answerOperation(call, ctx, seen),
      seen.scenario,
      ctx.hooks.scenarioSleep ?? timerSleep,
    );
  } finally {
    seen.release?.();
  }
  ctx.hooks.onAttempt?.({
    at: ctx.options.clock(),
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
  return answer;
}

/**
 * Answers an operation call without HTTP, as `POST …/paynet/api/*` would: the same body limit,
 * checks, engine, hooks and headers; a failure of the sandbox is logged and answered 500.
 */
export async function answerWithoutHttp(
  ctx: OperationContext,
  call: HttpCall,
  logError: (code: string | undefined, message: string) => void,
): Promise<OperationAnswer> {
  const body = Buffer.isBuffer(call.body) ? call.body : undefined;
  let r: ApiReply;
  try {
    r =
      body && body.byteLength > ctx.options.bodyLimit
        ? tooLarge(ctx.options.bodyLimit)
        : await answerCall(ctx, call);
  } catch (e) {
    logError((e as FastifyError).code, `sandbox: ${(e as Error).message}`);
    r = internalError();
  }
  const encoded = encodeReply(r, dialectOf(call.headers.accept, ctx.options.accept));
  return {
    status: encoded.status,
    headers: replyHeaders(r, encoded.contentType),
    body: encoded.body,
    ...(isReset(r) ? { reset: true as const } : {}),
  };
}
