/**
 * The trainer's live view of the room (`GET /classroom/trainer/events`, `GET /classroom/trainer/state`):
 * a `snapshot` event with the whole table first, then `delta` events with only the rows that changed,
 * each numbered (`seq`, one more than the event before). A browser that misses a number, or
 * reconnects, takes the whole table again. The classroom (classroom/trainer-stream.ts) types its
 * events with these; the trainer page parses them with them.
 */
import { z } from 'zod/mini';

const ExerciseStatus = z.object({
  id: z.string(),
  state: z.enum(['done', 'pending', 'open', 'locked']),
  detail: z.string(),
  attempts: z.number(),
  startedAt: z.nullable(z.number()),
  doneAt: z.nullable(z.number()),
});

const TrainerExercise = z.object({
  id: z.string(),
  title: z.string(),
  locked: z.boolean(),
  hintsShown: z.number(),
  hintsTotal: z.number(),
  autoHints: z.optional(z.nullable(z.object({ after: z.number(), cost: z.number() }))),
});

/** One trainee's row of the trainer's table. */
export const TrainerRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  login: z.string(),
  joinedAt: z.number(),
  done: z.number(),
  results: z.array(ExerciseStatus),
  lastRefused: z.nullable(
    z.object({
      at: z.number(),
      operation: z.nullable(z.string()),
      httpStatus: z.number(),
      errorCode: z.nullable(z.string()),
      errorMessage: z.nullable(z.string()),
      mistakeId: z.nullable(z.string()),
      mistakeLabel: z.nullable(z.string()),
      /** `trainer-restore`: refused because the trainer restored the joined key; not a mistake. */
      cause: z.optional(z.nullable(z.string())),
    }),
  ),
  /** The wrong causes the trainee named, per question, with how often. */
  wrongChoices: z.array(
    z.object({ exerciseId: z.string(), choice: z.string(), label: z.string(), count: z.number() }),
  ),
  /** The trainee's own variant of each exercise that declares one, and the answer that passes it. */
  variants: z.optional(
    z.array(z.object({ exerciseId: z.string(), values: z.string(), expected: z.string() })),
  ),
  hints: z.optional(
    z.array(z.object({ exerciseId: z.string(), mistakeId: z.string(), label: z.string(), cost: z.number() })),
  ),
  assisted: z.optional(z.array(z.string())),
  points: z.optional(z.number()),
});
export type TrainerRow = z.infer<typeof TrainerRowSchema>;

const MistakeCount = z.object({ mistakeId: z.string(), label: z.string(), count: z.number() });

/** The whole table (event `snapshot`; `seq` on the stream only). */
export const TrainerSnapshotSchema = z.object({
  seq: z.optional(z.number()),
  exercises: z.array(TrainerExercise),
  trainees: z.array(TrainerRowSchema),
  mistakes: z.array(MistakeCount),
  at: z.number(),
});
export type TrainerSnapshot = z.infer<typeof TrainerSnapshotSchema>;

/**
 * What changed since the event numbered `seq - 1` (event `delta`): the rows of the trainees whose
 * row changed (a new trainee's row comes last, in the order they joined), and the exercises or the
 * mistake counts when those changed.
 */
export const TrainerDeltaSchema = z.object({
  seq: z.number(),
  at: z.number(),
  trainees: z.array(TrainerRowSchema),
  exercises: z.optional(z.array(TrainerExercise)),
  mistakes: z.optional(z.array(MistakeCount)),
});
export type TrainerDelta = z.infer<typeof TrainerDeltaSchema>;
