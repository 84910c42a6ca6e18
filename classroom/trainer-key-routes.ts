import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ClassroomError, type Classroom } from './classroom.ts';

const traineeBody = z.object({ traineeId: z.string().min(1).max(64) });

function traineeIdOf(value: unknown): string {
  const r = traineeBody.safeParse(value);
  if (!r.success)
    throw new ClassroomError(400, 'VALIDATION', 'traineeId: name the trainee (an id from the trainer page).');
  return r.data.traineeId;
}

/**
 * The trainer's view of a trainee's key and the "Restore the key <trainee> joined with" action,
 * done by the classroom (not the sandbox's own route) so it knows which key it replaced.
 */
export function trainerKeyRoutes(app: FastifyInstance, classroom: Classroom): void {
  const TRAINER = { config: { access: 'trainer' } } as const;

  app.get<{ Querystring: { traineeId?: string } }>('/trainer/key', TRAINER, async (request, reply) => {
    const state = classroom.keyState(traineeIdOf(request.query));
    return reply.header('cache-control', 'no-store').send(state);
  });

  app.post('/trainer/restore-key', { ...TRAINER, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const result = classroom.restoreKey(traineeIdOf(request.body));
    return reply.header('cache-control', 'no-store').send(result);
  });
}
