import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod/mini';
import { PushAnswerSchema, PushRequestSchema } from '../src/contracts/pushed-capture.ts';
import { ClassroomError, type Classroom } from './classroom.ts';
import type { TraineeRow } from './classroom-store.ts';
import { readCookie, TRAINEE_COOKIE } from './http.ts';
import { liveEvents } from './live-stream.ts';
import type { PushedCaptures } from './pushed-captures.ts';

function parse<T>(schema: z.ZodMiniType<T>, body: unknown, example: string): T {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const where = i.path.map(String).join('.');
  throw new ClassroomError(400, 'VALIDATION', `Send ${example}: ${where ? `${where}: ` : ''}${i.message}.`);
}

/** The pushed question's routes under /classroom: the trainer pushes and watches, trainees answer. */
export async function pushedCaptureRoutes(
  app: FastifyInstance,
  pushed: PushedCaptures,
  classroom: Classroom,
): Promise<void> {
  const TRAINER = { config: { access: 'trainer' } } as const;
  const TRAINEE = { config: { access: 'trainee' } } as const;
  const trainee = (request: FastifyRequest): TraineeRow => {
    const t = classroom.traineeBySession(readCookie(request.headers.cookie, TRAINEE_COOKIE));
    if (!t)
      throw new ClassroomError(401, 'JOIN_FIRST', 'You have not joined this classroom: open the join page.');
    return t;
  };

  app.post('/trainer/push', { ...TRAINER, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const body = parse(PushRequestSchema, request.body, '{"mistake": "uppercase-hex"} or {} for any');
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(await pushed.pushCapture(body.mistake));
  });
  app.post('/trainer/push/close', TRAINER, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(pushed.close()),
  );
  app.get('/trainer/push', TRAINER, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(pushed.trainerView()),
  );
  // Answers and joins change the table: at most a few sends a second, however busy the room.
  app.get('/trainer/push/events', TRAINER, async (_request, reply) => {
    // A trainee the table does not list yet (one who just joined) is a change; a request is not.
    const listed = new Set<string>();
    const view = () => {
      const v = pushed.trainerView();
      for (const t of [...(v.push?.answers ?? []), ...(v.push?.waiting ?? [])]) listed.add(t.traineeId);
      return v;
    };
    return liveEvents(reply, 'snapshot', view, 200, (changed) => {
      const offPush = pushed.subscribe(changed);
      const offRoom = classroom.subscribe((id) => id !== null && !listed.has(id) && changed());
      return () => {
        offPush();
        offRoom();
      };
    });
  });

  app.get('/pushed', TRAINEE, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(pushed.traineeView(trainee(request).id)),
  );
  app.post('/pushed/answer', { ...TRAINEE, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const t = trainee(request);
    const body = parse(PushAnswerSchema, request.body, '{"pushId": "…", "choice": "uppercase-hex"}');
    return reply.header('cache-control', 'no-store').send(pushed.answer(t.id, body.pushId, body.choice));
  });
  app.get('/pushed/events', TRAINEE, async (request, reply) => {
    const t = trainee(request);
    return liveEvents(
      reply,
      'snapshot',
      () => pushed.traineeView(t.id),
      50,
      (changed) => pushed.subscribe((id) => (id === null || id === t.id) && changed()),
    );
  });
}
