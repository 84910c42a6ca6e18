import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBody, ProxyError } from '../proxy/upstream-errors.ts';
import { openEventStream } from '../proxy/event-stream.ts';
import type { ProxyTarget } from '../proxy/config.ts';
import { PAY_JSON } from '../sandbox/replies.ts';
import { ClassroomError, type Classroom } from './classroom.ts';
import type { TraineeRow } from './classroom-store.ts';
import { qrSvg } from './join-qr.ts';
import { resultsCsv, resultsJson } from './export-results.ts';

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
}

/**
 * Classroom mode's guard, run on every request before routing: state-changing classroom and proxy
 * requests must carry this console's Origin; the sandbox's operations need a trainee's session and
 * reach only their own merchant's endpoints (rate-limited, bounded); callback inboxes belong to the
 * trainee who first reads them; the demo merchant and key registration are closed.
 */
export function installClassroomGuard(app: FastifyInstance, opts: ClassroomHttpOptions): void {
  const { classroom } = opts;
  const inboxOwners = new Map<string, string>();
  const refuse = (reply: FastifyReply, status: number, code: string, message: string, pay = false) =>
    pay
      ? reply
          .code(status)
          .type(PAY_JSON)
          .header('cache-control', 'no-store')
          .send(JSON.stringify({ type: 'error', 'error-message': message, 'error-code': code }))
      : reply.code(status).type('application/json; charset=utf-8').send(errorBody(code, message));

  app.addHook('onRequest', async (request, reply) => {
    const url = request.url.split('?')[0]!;
    const stateChanging = !SAFE.has(request.method);
    if (stateChanging && (url.startsWith('/classroom/') || url.startsWith('/proxy/'))) {
      const origin = request.headers.origin;
      if (origin === undefined || !opts.origins(request).has(origin))
        return refuse(
          reply,
          403,
          'ORIGIN_REQUIRED',
          'In classroom mode every change is made from the console itself: open the console at the address the trainer gave and retry there.',
        );
    }
    if (url === '/sandbox/demo-merchant' || url.startsWith('/sandbox/merchants/'))
      return refuse(
        reply,
        403,
        'CLASSROOM_MODE',
        'In classroom mode each trainee has their own merchant: join at /join instead of using the demo merchant.',
      );
    if (url.startsWith('/sandbox/paynet/api/')) {
      const trainee = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
      if (!trainee)
        return refuse(
          reply,
          401,
          'JOIN_FIRST',
          'Join the classroom first (the join address the trainer gave).',
          true,
        );
      const ep = endpointOfPath(url);
      const merchant = classroom.merchantOf(trainee);
      const own =
        ep !== undefined &&
        merchant !== undefined &&
        (ep.kind === 'group' ? merchant.endpointGroupIds : merchant.endpointIds).includes(ep.id);
      if (!own)
        return refuse(
          reply,
          403,
          'NOT_YOUR_ENDPOINT',
          `In the classroom you send only to your own endpoint ${merchant?.endpointIds[0] ?? ''} (group ${merchant?.endpointGroupIds[0] ?? ''}).`,
          true,
        );
      try {
        classroom.admit(trainee);
      } catch (e) {
        if (e instanceof ClassroomError) return refuse(reply, e.status, e.code, e.message, true);
        throw e;
      }
    }
    const inbox = /^\/callbacks\/([^/]+)(\/list|\/events)?$/.exec(url);
    if (inbox && (inbox[2] !== undefined || request.method === 'DELETE')) {
      const trainee = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
      if (!trainee) return refuse(reply, 401, 'JOIN_FIRST', 'Join the classroom first to read callbacks.');
      const owner = inboxOwners.get(inbox[1]!);
      if (owner === undefined) inboxOwners.set(inbox[1]!, trainee.id);
      else if (owner !== trainee.id)
        return refuse(reply, 403, 'NOT_YOUR_INBOX', 'This callback inbox belongs to another trainee.');
    }
    return undefined;
  });
}

/** Classroom mode's proxy rule: only the built-in sandbox, only for a trainee. */
export function classroomProxyAuthorize(classroom: Classroom) {
  return (request: FastifyRequest, target: ProxyTarget): void => {
    if (target.kind !== 'local')
      throw new ProxyError(
        403,
        'CLASSROOM_LOCAL_ONLY',
        'In classroom mode the proxy sends only to the local sandbox: choose the "local" target.',
      );
    if (!classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE)))
      throw new ProxyError(
        401,
        'JOIN_FIRST',
        'Join the classroom first (the join address the trainer gave).',
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
  const trainer = (request: FastifyRequest): void => {
    if (classroom.isTrainer(readCookie(request.headers.cookie, TRAINER_COOKIE))) return;
    if (classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE)))
      throw new ClassroomError(
        403,
        'TRAINER_ONLY',
        'This is the trainer’s page: trainees use the exercises page.',
      );
    throw new ClassroomError(401, 'TRAINER_TOKEN', 'Open the trainer address printed by npm run classroom.');
  };

  app.post('/join', { bodyLimit: 32 * 1024 }, async (request, reply) => {
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

  app.get('/me', async (request, reply) => {
    const t = trainee(request);
    return reply.header('cache-control', 'no-store').send(classroom.traineeView(t));
  });

  app.post('/answer', { bodyLimit: 4 * 1024 }, async (request, reply) => {
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

  app.get('/events', async (request, reply) => {
    const t = trainee(request);
    return liveStream(
      reply,
      'view',
      () => classroom.traineeView(t),
      50,
      (id) => id === null || id === t.id,
    );
  });

  app.get<{ Querystring: { token?: string } }>('/trainer-login', async (request, reply) => {
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

  app.get('/trainer/state', async (request, reply) => {
    trainer(request);
    return reply.header('cache-control', 'no-store').send(classroom.trainerSnapshot());
  });

  // The join address as the trainer's browser reached this server (a Host the allow-list accepted),
  // so the code on the projected page is the one trainees in the room can open.
  app.get('/trainer/join-qr.svg', async (request, reply) => {
    trainer(request);
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(qrSvg(`http://${request.host}/join`));
  });

  app.get('/trainer/events', async (request, reply) => {
    trainer(request);
    // At most a few snapshots a second, however busy the room: each one is the whole table.
    return liveStream(
      reply,
      'snapshot',
      () => classroom.trainerSnapshot(),
      200,
      () => true,
    );
  });

  app.post('/trainer/hint', async (request) => {
    trainer(request);
    const body = parseBody(hintBody, request.body);
    return { exerciseId: body.exerciseId, hintsShown: classroom.revealHint(body.exerciseId) };
  });

  app.post('/trainer/lock', async (request) => {
    trainer(request);
    const body = parseBody(lockBody, request.body);
    classroom.setLocked(body.exerciseId, body.locked);
    return { exerciseId: body.exerciseId, locked: body.locked };
  });

  app.post('/trainer/reset', async (request) => {
    trainer(request);
    const body = parseBody(resetBody, request.body);
    classroom.resetTrainee(body.traineeId);
    return { traineeId: body.traineeId, reset: true };
  });

  app.get('/trainer/export.csv', async (request, reply) => {
    trainer(request);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="classroom-results.csv"')
      .header('cache-control', 'no-store')
      .send(resultsCsv(classroom.trainerSnapshot()));
  });

  app.get('/trainer/export.json', async (request, reply) => {
    trainer(request);
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', 'attachment; filename="classroom-results.json"')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(resultsJson(classroom.trainerSnapshot()), null, 2));
  });
}
