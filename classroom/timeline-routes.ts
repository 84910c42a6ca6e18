import type { FastifyInstance } from 'fastify';
import type { Timeline } from '../src/contracts/trainee-timeline.ts';
import { ClassroomError, DEFAULT_LIMITS, mistakeLabel, type Classroom } from './classroom.ts';
import type { ClassroomStore } from './classroom-store.ts';
import { liveEvents } from './live-stream.ts';

/** The latest requests the big screen shows (the classroom keeps up to 500 per trainee). */
const SHOWN = 50;

/** One trainee's attempts as the classroom keeps them (the diagnoses included), newest first. */
export function timelineOf(store: ClassroomStore, traineeId: string): Timeline {
  const t = store.trainees().find((row) => row.id === traineeId);
  if (!t) throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'No such trainee: reload the trainer page.');
  const all = store.attemptsOf(traineeId, DEFAULT_LIMITS.attemptsKept);
  return {
    trainee: { id: t.id, name: t.name },
    total: all.length,
    entries: all
      .slice(-SHOWN)
      .reverse()
      .map((a) => ({
        id: a.id,
        at: a.at,
        operation: a.opPath,
        scheme: a.scheme,
        httpStatus: a.httpStatus,
        accepted: a.accepted,
        errorCode: a.errorCode,
        errorMessage: a.errorMessage,
        mistake: a.mistakeId ? { id: a.mistakeId, label: mistakeLabel(a.mistakeId) } : null,
        cause: a.cause ?? null,
      })),
  };
}

/** The projection of one trainee's timeline (the trainer's): a snapshot, and a live stream of it. */
export async function timelineRoutes(
  app: FastifyInstance,
  store: ClassroomStore,
  classroom: Classroom,
): Promise<void> {
  const TRAINER = { config: { access: 'trainer' } } as const;
  type Params = { Params: { traineeId: string } };
  app.get<Params>('/trainer/timeline/:traineeId', TRAINER, async (request, reply) =>
    reply.header('cache-control', 'no-store').send(timelineOf(store, request.params.traineeId.slice(0, 64))),
  );
  app.get<Params>('/trainer/timeline/:traineeId/events', TRAINER, async (request, reply) => {
    const id = request.params.traineeId.slice(0, 64);
    const first = timelineOf(store, id);
    let sent = false;
    return liveEvents(
      reply,
      'snapshot',
      () => (sent ? timelineOf(store, id) : ((sent = true), first)),
      100,
      (changed) => classroom.subscribe((who) => (who === null || who === id) && changed()),
    );
  });
}
