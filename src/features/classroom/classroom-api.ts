import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { errorText } from '../../core/errors.ts';
import type { TrainerSnapshot } from '../../contracts/classroom-trainer.ts';
import { applyTrainerEvent } from './trainer-table.ts';

/* The classroom server's answers, parsed before the pages use them. */

const state = z.enum(['done', 'pending', 'open', 'locked']);

const statusShape = {
  id: z.string(),
  state,
  detail: z.string(),
  attempts: z.number(),
  startedAt: z.nullable(z.number()),
  doneAt: z.nullable(z.number()),
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
      operation: z.nullable(z.string()),
      locked: z.boolean(),
      /** A question's choices: the diagnosis engine's mistake ids and their labels. */
      choices: z.nullable(z.array(z.object({ id: z.string(), label: z.string() }))),
      capture: z.nullable(z.string()),
      answer: z.nullable(z.string()),
      /** Hints that unlocked by themselves for this trainee's own mistakes. */
      ownHints: z.optional(
        z.array(z.object({ mistakeId: z.string(), label: z.string(), text: z.string(), cost: z.number() })),
      ),
      autoHintAfter: z.optional(z.nullable(z.number())),
      assisted: z.optional(z.boolean()),
    }),
  ),
  points: z.optional(z.number()),
});
export type TraineeView = z.infer<typeof TraineeViewSchema>;

export { TrainerSnapshotSchema, type TrainerSnapshot } from '../../contracts/classroom-trainer.ts';

export const JoinAnswerSchema = z.object({
  traineeId: z.string(),
  name: z.string(),
  login: z.string(),
  controlKey: z.string(),
  endpointId: z.string(),
  endpointGroupId: z.string(),
  keyFingerprint: z.string(),
});

export const StatusSchema = z.union([
  z.object({ joined: z.literal(false) }),
  z.object({ joined: z.literal(true), traineeId: z.string(), name: z.string(), login: z.string() }),
]);
export type ClassroomStatus = z.infer<typeof StatusSchema>;

/** GET /classroom/status: whether this browser's session is a trainee's (always 200). */
export async function readStatus(): Promise<ClassroomStatus> {
  let res: Response;
  try {
    res = await fetch('/classroom/status', { headers: { accept: 'application/json' } });
  } catch {
    throw new Error('Could not reach the classroom server: is `npm run classroom` still running?');
  }
  if (!res.ok) throw await failure(res, 'the classroom status');
  const parsed = StatusSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new Error('The classroom server’s status has an unexpected shape.');
  return parsed.data;
}

export const PublicKeyAnswerSchema = z.looseObject({
  login: z.string(),
  keyBits: z.number(),
  keyFingerprint: z.string(),
});
export const RestoredKeyAnswerSchema = z.extend(PublicKeyAnswerSchema, {
  restored: z.boolean(),
  privateKeyKnown: z.boolean(),
});

/** GET /classroom/trainer/key: the key a trainee's RSA signatures are verified with now. */
export const TraineeKeyStateSchema = z.object({
  login: z.string(),
  current: z.object({
    keyFingerprint: z.string(),
    keyBits: z.number(),
    registeredAt: z.nullable(z.number()),
  }),
  joined: z.object({ keyFingerprint: z.string(), keyBits: z.number() }),
  joinedKeyInUse: z.boolean(),
});
export type TraineeKeyState = z.infer<typeof TraineeKeyStateSchema>;
export const RestoreKeyAnswerSchema = z.extend(TraineeKeyStateSchema, { restored: z.boolean() });

const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

/** The server's own sentence for a refused request (the classroom's or the sandbox's), else one naming the status. */
async function failure(res: Response, what: string): Promise<Error> {
  const json: unknown = await res.json().catch(() => null);
  const parsed = ErrorSchema.safeParse(json);
  if (parsed.success) return new Error(parsed.data.error.message);
  const sandbox = z.object({ 'error-message': z.string() }).safeParse(json);
  return new Error(
    sandbox.success ? sandbox.data['error-message'] : `The server answered ${res.status} to ${what}.`,
  );
}

/** POSTs JSON to the classroom server (same origin: the browser sends Origin and the session cookie). */
export function postJson<S extends z.ZodMiniType>(
  url: string,
  body: unknown,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  return sendJson('POST', url, body, schema, what);
}

/** A state-changing JSON request to this server; `body` undefined sends none. */
export async function sendJson<S extends z.ZodMiniType>(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body: unknown,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
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
  | { kind: 'connecting' }
  /** `lost`: the stream broke and the browser is reconnecting; `data` is the last state seen. */
  | { kind: 'live'; data: T; lost?: boolean }
  | { kind: 'refused'; message: string };

/** Why this browser may not follow the trainee's stream (it has not joined), or null. */
export async function traineeRefusal(): Promise<string | null> {
  const status = await readStatus();
  return status.joined ? null : 'You have not joined this classroom (or you left it).';
}

/** A GET of this server's JSON, parsed; a refusal's own sentence otherwise. */
export async function getJson<S extends z.ZodMiniType>(
  url: string,
  schema: S,
  what: string,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
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

/** Why this browser may not follow the trainer's stream (not the trainer), or null. */
export async function trainerRefusal(): Promise<string | null> {
  const res = await fetch('/classroom/trainer/state', { headers: { accept: 'application/json' } });
  return res.status === 401 || res.status === 403 ? (await failure(res, 'the classroom')).message : null;
}

/** How a stream's event reads: a new state, `resync` (read the stream again from its start), or nothing. */
type ReadEvent<T> = (type: string, data: string) => T | 'resync' | undefined;

/**
 * Follows a server-sent event stream whose every event is the whole state; `refusal` tells why a
 * stream was refused (not joined, not the trainer): asked first, so a refused stream is never
 * opened, and again when the stream fails.
 */
export function followEvents<T>(
  url: string,
  refusal: () => Promise<string | null>,
  schema: z.ZodMiniType<T>,
  onChange: (live: Live<T>) => void,
): () => void {
  return follow(url, refusal, onChange, ['view', 'snapshot'], () => (_type, data) => {
    try {
      const parsed = schema.safeParse(JSON.parse(data));
      return parsed.success ? parsed.data : undefined;
    } catch {
      // A malformed event is skipped; the next one carries the whole state again.
      return undefined;
    }
  });
}

/**
 * Follows the trainer's stream: a snapshot, then deltas applied to it (trainer-table.ts); on a
 * missed delta the stream is opened again, which starts with a snapshot.
 */
export function followTrainerEvents(
  url: string,
  refusal: () => Promise<string | null>,
  onChange: (live: Live<TrainerSnapshot>) => void,
): () => void {
  return follow(url, refusal, onChange, ['snapshot', 'delta'], () => {
    let table: TrainerSnapshot | undefined;
    return (type, data) => {
      const step = applyTrainerEvent(table, { type, data });
      if (step.kind === 'ignore') return undefined;
      table = step.kind === 'table' ? step.table : undefined;
      return step.kind === 'table' ? step.table : 'resync';
    };
  });
}

function follow<T>(
  url: string,
  refusal: () => Promise<string | null>,
  onChange: (live: Live<T>) => void,
  events: readonly string[],
  reader: () => ReadEvent<T>,
): () => void {
  let closed = false;
  let source: EventSource | undefined;
  const refuse = (message: string) => {
    source?.close();
    onChange({ kind: 'refused', message });
  };
  const open = () => {
    source = openStream(url, refusal, onChange, refuse, events, reader(), () => {
      source?.close();
      if (!closed) open();
    });
  };
  void refusal().then(
    (message) => {
      if (closed) return;
      if (message !== null) refuse(message);
      else open();
    },
    (e: unknown) => !closed && refuse(errorText(e)),
  );
  return () => {
    closed = true;
    source?.close();
  };
}

function openStream<T>(
  url: string,
  refusal: () => Promise<string | null>,
  onChange: (live: Live<T>) => void,
  refuse: (message: string) => void,
  events: readonly string[],
  read: ReadEvent<T>,
  resync: () => void,
): EventSource {
  const source = new EventSource(url);
  let last: T | undefined;
  const handle = (e: MessageEvent<string>) => {
    const next = read(e.type, e.data);
    if (next === 'resync') resync();
    else if (next !== undefined) {
      last = next;
      onChange({ kind: 'live', data: next });
    }
  };
  for (const name of events) source.addEventListener(name, handle);
  source.onerror = () => {
    // The browser retries on its own (CONNECTING); until the next event the page says it is stale.
    if (last !== undefined && source.readyState !== EventSource.CLOSED)
      onChange({ kind: 'live', data: last, lost: true });
    void refusal().then(
      (message) => message !== null && refuse(message),
      () => undefined,
    );
  };
  return source;
}
