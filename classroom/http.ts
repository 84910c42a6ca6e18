import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBody, ProxyError } from '../proxy/upstream-errors.ts';
import { allOf, type AccessPolicy, type AccessRule, type Refusal } from '../sandbox/route-access.ts';
import { openEventStream } from '../proxy/event-stream.ts';
import type { ConfiguredTarget } from '../proxy/config.ts';
import { ClassroomError, type Classroom } from './classroom.ts';
import type { TraineeRow } from './classroom-store.ts';
import { qrSvg } from './join-qr.ts';
import { SCENARIO_HEADER } from '../src/catalog/scenarios.ts';
import { resultsCsv, resultsJson } from './export-results.ts';
import { trainerKeyRoutes } from './trainer-key-routes.ts';
import { hintRoutes } from './hint-routes.ts';
import { trainerEvents } from './trainer-stream.ts';

export const TRAINEE_COOKIE = 'pc_trainee';
export const TRAINER_COOKIE = 'pc_trainer';

/** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), the whole console. */
function cookie(name: string, value: string): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${60 * 60 * 24 * 30}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const joinBody = z.object({
  name: z
    .string()
    .transform((s) => s.trim().replace(/\s+/g, ' '))
    .pipe(
      z
        .string()
        .min(1, 'type a display name')
        .max(40, 'a display name has at most 40 characters')
        .refine((s) => !/[\p{Cc}<>]/u.test(s), 'a display name has no control characters or < >'),
    ),
  publicKeyPem: z.string().min(100, 'publicKeyPem: send the PEM public key your browser made').max(20_000),
});
const answerBody = z.object({ exerciseId: z.string().min(1).max(64), choice: z.string().min(1).max(64) });
const hintBody = z.object({ exerciseId: z.string().min(1).max(64) });
const lockBody = z.object({ exerciseId: z.string().min(1).max(64), locked: z.boolean() });
const resetBody = z.object({ traineeId: z.string().min(1).max(64) });

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const field = i.path.map(String).join('.');
    throw new ClassroomError(
      400,
      'VALIDATION',
      `${field && !i.message.startsWith(field) ? `${field}: ` : ''}${i.message}.`,
    );
  }
  return r.data;
}

/** Where a sandbox operation path points: the endpoint (or group) id at its end. */
export function endpointOfPath(path: string): { kind: 'endpoint' | 'group'; id: string } | undefined {
  const m = /\/(group\/)?(\d{1,19})\/?$/.exec(path.split('?')[0]!);
  return m ? { kind: m[1] ? 'group' : 'endpoint', id: m[2]! } : undefined;
}

export interface ClassroomHttpOptions {
  classroom: Classroom;
  /** Origins of this server (its loopback names and the address the trainer gave). */
  origins: (request: FastifyRequest) => Set<string>;
  /** Inbox name → its trainee, shared with the callback rule (callback-rule.ts). */
  inboxOwners?: Map<string, string>;
}

const JOIN_FIRST: Refusal = {
  status: 401,
  code: 'JOIN_FIRST',
  message: 'Join the classroom first (the join address the trainer gave).',
};

const SCENARIO_TRAINER_ONLY: Refusal = {
  status: 403,
  code: 'SCENARIO_TRAINER_ONLY',
  message:
    'In the classroom the trainer chooses scenarios (for the room or for you, on the trainer page): send the request again without the X-Sandbox-Scenario header.',
};

/**
 * Classroom mode's access rules, added to the console's (see sandbox/route-access.ts): every change
 * is made from the console itself (its Origin); the sandbox's operations need a trainee's session
 * and reach only their own merchant's endpoints (rate-limited, bounded); a callback inbox belongs to
 * the trainee who first reads it; a merchant's key is changed only by its trainee or the trainer;
 * the demo merchant is closed. Each rule reads the route's decoded parameters.
 */
export function classroomPolicy(opts: ClassroomHttpOptions): AccessPolicy {
  const { classroom } = opts;
  const inboxOwners = opts.inboxOwners ?? new Map<string, string>();
  const traineeOf = (request: FastifyRequest) =>
    classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
  const isTrainer = (request: FastifyRequest) =>
    classroom.isTrainer(readCookie(request.headers.cookie, TRAINER_COOKIE));

  const ownOrigin: AccessRule = (request) => {
    if (SAFE.has(request.method)) return undefined;
    const origin = request.headers.origin;
    return origin !== undefined && opts.origins(request).has(origin)
      ? undefined
      : {
          status: 403,
          code: 'ORIGIN_REQUIRED',
          message:
            'In classroom mode every change is made from the console itself: open the console at the address the trainer gave and retry there.',
        };
  };
  const trainee: AccessRule = (request) => (traineeOf(request) ? undefined : JOIN_FIRST);
  const trainer: AccessRule = (request) => {
    if (isTrainer(request)) return undefined;
    return traineeOf(request)
      ? {
          status: 403,
          code: 'TRAINER_ONLY',
          message: 'This is the trainer’s page: trainees use the exercises page.',
        }
      : {
          status: 401,
          code: 'TRAINER_TOKEN',
          message: 'Open the trainer address printed by npm run classroom.',
        };
  };
  const operation: AccessRule = (request) => {
    const t = traineeOf(request);
    if (!t) return JOIN_FIRST;
    // The trainer chooses scenarios (per room or per trainee); refused before the rate is counted.
    if (request.headers[SCENARIO_HEADER] !== undefined) return SCENARIO_TRAINER_ONLY;
    const ep = endpointOfPath((request.params as { '*'?: string })['*'] ?? '');
    const merchant = classroom.merchantOf(t);
    const own =
      ep !== undefined &&
      merchant !== undefined &&
      (ep.kind === 'group' ? merchant.endpointGroupIds : merchant.endpointIds).includes(ep.id);
    if (!own)
      return {
        status: 403,
        code: 'NOT_YOUR_ENDPOINT',
        message: `In the classroom you send only to your own endpoint ${merchant?.endpointIds[0] ?? ''} (group ${merchant?.endpointGroupIds[0] ?? ''}).`,
      };
    try {
      classroom.admit(t);
    } catch (e) {
      if (e instanceof ClassroomError) return { status: e.status, code: e.code, message: e.message };
      throw e;
    }
    return undefined;
  };
  const ownInbox: AccessRule = (request) => {
    const t = traineeOf(request);
    if (!t) return { ...JOIN_FIRST, message: 'Join the classroom first to read callbacks.' };
    const inbox = (request.params as { inbox?: string }).inbox ?? '';
    const owner = inboxOwners.get(inbox);
    if (owner === undefined) inboxOwners.set(inbox, t.id);
    else if (owner !== t.id)
      return {
        status: 403,
        code: 'NOT_YOUR_INBOX',
        message: 'This callback inbox belongs to another trainee.',
      };
    return undefined;
  };
  const merchantKey: AccessRule = (request) => {
    if (isTrainer(request)) return undefined;
    const t = traineeOf(request);
    if (!t)
      return {
        ...JOIN_FIRST,
        message: 'In the classroom a merchant’s key is changed by its trainee (joined) or by the trainer.',
      };
    return (request.params as { login?: string }).login === t.login
      ? undefined
      : {
          status: 403,
          code: 'NOT_YOUR_MERCHANT',
          message: `In the classroom you change only your own merchant’s key (${t.login}).`,
        };
  };
  return {
    'sandbox-admin': () => ({
      status: 403,
      code: 'CLASSROOM_MODE',
      message:
        'In classroom mode each trainee has their own merchant: join at /join instead of using the demo merchant.',
    }),
    'merchant-key': allOf(ownOrigin, merchantKey),
    'gateway-api': operation,
    'callback-reader': ownInbox,
    proxy: allOf(ownOrigin, (request) => (request.method === 'POST' ? trainee(request) : undefined)),
    page: ownOrigin,
    'classroom-public': ownOrigin,
    trainee: allOf(ownOrigin, trainee),
    trainer: allOf(ownOrigin, trainer),
  };
}

/** Classroom mode's proxy rule: only the built-in sandbox (the policy has admitted only trainees). */
export function classroomProxyAuthorize() {
  return (_request: FastifyRequest, target: ConfiguredTarget): void => {
    if (target.kind !== 'local')
      throw new ProxyError(
        403,
        'CLASSROOM_LOCAL_ONLY',
        'In classroom mode the proxy sends only to the local sandbox: choose the "local" target.',
      );
  };
}

/** The classroom's routes under /classroom: join, the trainee's view and events, the trainer's API. */
export async function classroomRoutes(app: FastifyInstance, opts: ClassroomHttpOptions): Promise<void> {
  const { classroom } = opts;
  const keepAliveMs = 15_000;

  app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
    if (err instanceof ClassroomError) return reply.code(err.status).send(errorBody(err.code, err.message));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) console.error(`classroom: internal error: ${err.stack ?? err.message}`);
    return reply
      .code(status)
      .send(
        errorBody(
          status === 500 ? 'INTERNAL' : 'BAD_REQUEST',
          status === 500 ? 'The classroom failed on this request; see the server console.' : err.message,
        ),
      );
  });

  const trainee = (request: FastifyRequest): TraineeRow => {
    const t = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
    if (!t)
      throw new ClassroomError(401, 'JOIN_FIRST', 'You have not joined this classroom: open the join page.');
    return t;
  };
  // Who may call each route is declared on it and enforced by classroomPolicy's rules.
  const PUBLIC = { config: { access: 'classroom-public' } } as const;
  const TRAINEE = { config: { access: 'trainee' } } as const;
  const TRAINER = { config: { access: 'trainer' } } as const;

  app.post('/join', { ...PUBLIC, bodyLimit: 32 * 1024 }, async (request, reply) => {
    const body = parseBody(joinBody, request.body);
    const { session, trainee: t, merchant } = await classroom.join(body.name, body.publicKeyPem);
    return reply
      .code(201)
      .header('set-cookie', cookie(TRAINEE_COOKIE, session))
      .header('cache-control', 'no-store')
      .send({
        traineeId: t.id,
        name: t.name,
        login: merchant.login,
        controlKey: merchant.controlKey,
        endpointId: merchant.endpointIds[0],
        endpointGroupId: merchant.endpointGroupIds[0],
        keyFingerprint: merchant.keyFingerprint,
      });
  });

  // Whether this browser has joined: always 200, so a page can ask before joining.
  app.get('/status', PUBLIC, async (request, reply) => {
    const t = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
    return reply
      .header('cache-control', 'no-store')
      .send(t ? { joined: true, traineeId: t.id, name: t.name, login: t.login } : { joined: false });
  });

  // "Leave this classroom": the session ends here and the cookie is dropped; results stay for the trainer.
  app.post('/leave', TRAINEE, async (request, reply) => {
    classroom.endSession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
    return reply
      .code(204)
      .header('set-cookie', `${TRAINEE_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`)
      .send();
  });

  app.get('/me', TRAINEE, async (request, reply) => {
    const t = trainee(request);
    return reply.header('cache-control', 'no-store').send(classroom.traineeView(t));
  });

  app.post('/answer', { ...TRAINEE, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const t = trainee(request);
    const body = parseBody(answerBody, request.body);
    classroom.answer(t.id, body.exerciseId, body.choice);
    return reply.header('cache-control', 'no-store').send(classroom.traineeView(t));
  });

  /**
   * A server-sent event stream of `event`, with `snapshot()` sent at once and again `delayMs` after
   * a change `wanted` (changes in between fold into one send), until the browser goes.
   */
  const liveStream = (
    reply: FastifyReply,
    event: string,
    snapshot: () => unknown,
    delayMs: number,
    wanted: (traineeId: string | null) => boolean,
  ) => {
    const res = openEventStream(reply, 2000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const send = () => {
      timer = undefined;
      res.write(`event: ${event}\ndata: ${JSON.stringify(snapshot())}\n\n`);
    };
    send();
    const off = classroom.subscribe((id) => {
      if (wanted(id) && timer === undefined) timer = setTimeout(send, delayMs);
    });
    const ping = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
    res.on('close', () => {
      off();
      clearInterval(ping);
      if (timer) clearTimeout(timer);
    });
    return reply;
  };

  app.get('/events', TRAINEE, async (request, reply) => {
    const t = trainee(request);
    return liveStream(
      reply,
      'view',
      () => classroom.traineeView(t),
      50,
      (id) => id === null || id === t.id,
    );
  });

  app.get<{ Querystring: { token?: string } }>('/trainer-login', PUBLIC, async (request, reply) => {
    if (!classroom.isTrainer(request.query.token))
      throw new ClassroomError(
        403,
        'TRAINER_TOKEN',
        'This trainer address is not valid: copy it again from the server console.',
      );
    return reply
      .code(303)
      .header('set-cookie', cookie(TRAINER_COOKIE, request.query.token!))
      .header('location', '/trainer')
      .send();
  });

  app.get('/trainer/state', TRAINER, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send(classroom.trainerSnapshot());
  });

  // The join address as the trainer's browser reached this server (a Host the allow-list accepted),
  // so the code on the projected page is the one trainees in the room can open.
  app.get('/trainer/join-qr.svg', TRAINER, async (request, reply) => {
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(qrSvg(`http://${request.host}/join`));
  });

  app.get('/trainer/events', TRAINER, async (_request, reply) =>
    // At most five events a second, however busy the room; each carries only the rows that changed.
    trainerEvents(reply, classroom, 200),
  );

  app.post('/trainer/hint', TRAINER, async (request) => {
    const body = parseBody(hintBody, request.body);
    return { exerciseId: body.exerciseId, hintsShown: classroom.revealHint(body.exerciseId) };
  });

  app.post('/trainer/lock', TRAINER, async (request) => {
    const body = parseBody(lockBody, request.body);
    classroom.setLocked(body.exerciseId, body.locked);
    return { exerciseId: body.exerciseId, locked: body.locked };
  });

  app.post('/trainer/reset', TRAINER, async (request) => {
    const body = parseBody(resetBody, request.body);
    classroom.resetTrainee(body.traineeId);
    return { traineeId: body.traineeId, reset: true };
  });

  trainerKeyRoutes(app, classroom);
  hintRoutes(app, classroom, trainee);

  app.get('/trainer/export.csv', TRAINER, async (_request, reply) => {
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="classroom-results.csv"')
      .header('cache-control', 'no-store')
      .send(resultsCsv(classroom.trainerSnapshot()));
  });

  app.get('/trainer/export.json', TRAINER, async (_request, reply) => {
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="classroom-results.json"')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(resultsJson(classroom.trainerSnapshot()), null, 2));
  });
}
