/**
 * Exam mode on the wire (`GET /classroom/trainer/exam`, `GET /classroom/exam`, and the trainer's
 * start, end and reopen): the classroom (classroom/exam.ts) answers this shape and the pages parse it.
 */
import { z } from 'zod/mini';

export const ExamStateSchema = z.object({
  /** `none`: no exam; `running`: hints off; `over`: the room is frozen until the trainer reopens it. */
  state: z.enum(['none', 'running', 'over']),
  startedAt: z.nullable(z.string()),
  endsAt: z.nullable(z.string()),
  minutes: z.nullable(z.number()),
  /** The server's clock when it answered (the page times the end by it). */
  now: z.string(),
});
export type ExamState = z.infer<typeof ExamStateSchema>;
