import { z } from 'zod';

/* The classroom server's answers, parsed before the pages use them. */

const state = z.enum(['done', 'pending', 'open', 'locked']);

const statusShape = {
  id: z.string(),
  state,
  detail: z.string(),
  attempts: z.number(),
  startedAt: z.number().nullable(),
  doneAt: z.number().nullable(),
};
export const ExerciseStatusSchema = z.object(statusShape);
export type ExerciseStatus = z.infer<typeof ExerciseStatusSchema>;

export const TraineeViewSchema = z.object({
  trainee: z.object({
    id: z.string(),
    name: z.string(),
    login: z.string(),
    endpointId: z.string(),
    endpointGroupId: z.string(),
  }),
  exercises: z.array(
    z.object({
      ...statusShape,
      title: z.string(),
      goal: z.string(),
      hints: z.array(z.string()),
      hintsTotal: z.number(),
      operation: z.string().nullable(),
      locked: z.boolean(),
      choices: z.array(z.string()).nullable(),
      capture: z.string().nullable(),
      answer: z.string().nullable(),
    }),
  ),
});
export type TraineeView = z.infer<typeof TraineeViewSchema>;

export const TrainerSnapshotSchema = z.object({
  exercises: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      locked: z.boolean(),
      hintsShown: z.number(),
      hintsTotal: z.number(),
    }),
  ),
  trainees: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      login: z.string(),
      joinedAt: z.number(),
      done: z.number(),
      results: z.array(ExerciseStatusSchema),
      lastRefused: z
        .object({
          at: z.number(),
          operation: z.string().nullable(),
          httpStatus: z.number(),
          errorCode: z.string().nullable(),
          errorMessage: z.string().nullable(),
          mistakeId: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
  mistakes: z.array(z.object({ mistakeId: z.string(), count: z.number() })),
  at: z.number(),
});
export type TrainerSnapshot = z.infer<typeof TrainerSnapshotSchema>;

export const JoinAnswerSchema = z.object({
  traineeId: z.string(),
  name: z.string(),
  login: z.string(),
  controlKey: z.string(),
  endpointId: z.string(),
  endpointGroupId: z.string(),
  keyFingerprint: z.string(),
});

const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The server's own sentence for a refused request, else one naming the status. */
async function failure(res: Response, what: string): Promise<Error> {
  const parsed = ErrorSchema.safeParse(await res.json().catch(() => null));
  return new Error(
    parsed.success ? parsed.data.error.message : `The server answered ${res.status} to ${what}.`,
  );
}

/** POSTs JSON to the classroom server (same origin: the browser sends Origin and the session cookie). */
export async function postJson<S extends z.ZodType>(
  url: string,
  body: unknown,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(
      `Could not reach the classroom server for ${what}: is \`npm run classroom\` still running?`,
    );
  }
  if (!res.ok) throw await failure(res, what);
  const parsed = schema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new Error(`The classroom server's answer to ${what} has an unexpected shape.`);
  return parsed.data;
}

export type Live<T> =
  { kind: 'connecting' } | { kind: 'live'; data: T } | { kind: 'refused'; message: string };

/**
 * Follows a server-sent event stream whose every event is the whole state; `probe` (a GET of the
 * same state as JSON) tells why a stream was refused (not joined, not the trainer).
 */
export function followEvents<T>(
  url: string,
  probe: string,
  schema: z.ZodType<T>,
  onChange: (live: Live<T>) => void,
): () => void {
  const source = new EventSource(url);
  const handle = (e: MessageEvent<string>) => {
    try {
      const parsed = schema.safeParse(JSON.parse(e.data));
      if (parsed.success) onChange({ kind: 'live', data: parsed.data });
    } catch {
      // A malformed event is skipped; the next one carries the whole state again.
    }
  };
  source.addEventListener('view', handle);
  source.addEventListener('snapshot', handle);
  source.onerror = () => {
    void fetch(probe, { headers: { accept: 'application/json' } }).then(
      async (res) => {
        if (res.status === 401 || res.status === 403) {
          source.close();
          onChange({ kind: 'refused', message: (await failure(res, 'the classroom')).message });
        }
      },
      () => undefined,
    );
  };
  return () => source.close();
}
