/**
 * A broken capture the trainer pushes to every trainee's debugger ("what is wrong with this one?")
 * and the answers collected live (`classroom/pushed-captures.ts`). The server types its answers and
 * events with these; the classroom pages parse them with them.
 */
import { z } from 'zod/mini';

const Choice = z.object({ id: z.string(), label: z.string() });

/** `GET /classroom/pushed/events` (event `snapshot`): the question as one trainee sees it. */
export const TraineePushSchema = z.object({
  push: z.nullable(
    z.object({
      id: z.string(),
      at: z.number(),
      capture: z.string(),
      choices: z.array(Choice),
      /** This trainee's answer, once sent (one per question). */
      answer: z.nullable(Choice),
      closed: z.boolean(),
      /** Only once the trainer closed the question: the diagnosis engine's finding, and whether they named it. */
      finding: z.nullable(Choice),
      right: z.nullable(z.boolean()),
    }),
  ),
});
export type TraineePush = z.infer<typeof TraineePushSchema>;

/** `GET /classroom/trainer/push/events` (event `snapshot`): the question and every answer, graded. */
export const TrainerPushSchema = z.object({
  /** The mistakes the trainer may have the capture made with. */
  mistakes: z.array(Choice),
  push: z.nullable(
    z.object({
      id: z.string(),
      at: z.number(),
      capture: z.string(),
      /** The diagnosis engine's confirmed cause of the capture: what a right answer names. */
      finding: Choice,
      choices: z.array(Choice),
      closed: z.boolean(),
      answers: z.array(
        z.object({
          traineeId: z.string(),
          name: z.string(),
          choice: Choice,
          right: z.boolean(),
          at: z.number(),
        }),
      ),
      /** Trainees who have not answered yet. */
      waiting: z.array(z.object({ traineeId: z.string(), name: z.string() })),
    }),
  ),
});
export type TrainerPush = z.infer<typeof TrainerPushSchema>;

/** `POST /classroom/trainer/push`: the mistake to make on purpose (one of the generator's), or any. */
export const PUSH_MISTAKES = ['amount-major-units', 'uppercase-hex', 'field-missing-from-formula'] as const;
export const PushRequestSchema = z.object({ mistake: z.optional(z.enum(PUSH_MISTAKES)) });

/** `POST /classroom/pushed/answer`: the trainee's answer to the question they were pushed. */
export const PushAnswerSchema = z.object({
  pushId: z.string().check(z.maxLength(64)),
  choice: z.string().check(z.maxLength(64)),
});
