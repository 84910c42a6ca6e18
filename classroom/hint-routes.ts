import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ClassroomError, type Classroom } from './classroom.ts';
import type { TraineeRow } from './classroom-store.ts';

const autoHintsBody = z.object({
  exerciseId: z.string().min(1).max(64),
  /** Refused requests before the hint unlocks; null turns self-unlocking hints off. */
  after: z.number().int().min(1).max(50).nullable(),
  cost: z.number().int().min(0).max(100).default(2),
});
const skipBody = z.object({ exerciseId: z.string().min(1).max(64) });

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new ClassroomError(400, 'VALIDATION', `${i.path.map(String).join('.')}: ${i.message}.`);
  }
  return r.data;
}

/** Hints that pick themselves (the trainer's setting per exercise) and a trainee's "Skip". */
export function hintRoutes(
  app: FastifyInstance,
  classroom: Classroom,
  trainee: (request: FastifyRequest) => TraineeRow,
): void {
  const TRAINER = { config: { access: 'trainer' } } as const;
  const TRAINEE = { config: { access: 'trainee' } } as const;

  app.post('/trainer/auto-hints', { ...TRAINER, bodyLimit: 4 * 1024 }, async (request) => {
    const body = parse(autoHintsBody, request.body);
    classroom.setAutoHints(body.exerciseId, body.after, body.cost);
    return { exerciseId: body.exerciseId, after: body.after, cost: body.cost };
  });

  app.post('/skip', { ...TRAINEE, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const t = trainee(request);
    const body = parse(skipBody, request.body);
    classroom.skip(t.id, body.exerciseId);
    return reply.header('cache-control', 'no-store').send(classroom.traineeView(t));
  });
}
