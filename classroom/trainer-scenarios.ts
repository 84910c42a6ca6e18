import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ScenarioChoiceSchema, type ScenarioChoice } from '../src/catalog/scenarios.ts';
import type { SandboxHandle } from '../sandbox/hooks.ts';
import { ClassroomError, type Classroom } from './classroom.ts';
import type { ClassroomStore } from './classroom-store.ts';

const ROOM_KEY = 'scenario_room';
const traineeKey = (id: string) => `scenario_trainee:${id}`;

/** What the trainer page shows: the room's choice and, per trainee, their own and the one in force. */
export interface ScenarioView {
  room: ScenarioChoice;
  trainees: Array<{ id: string; name: string; own: ScenarioChoice | null; inForce: ScenarioChoice }>;
}

function readChoice(json: string | undefined): ScenarioChoice | undefined {
  if (json === undefined) return undefined;
  try {
    const r = ScenarioChoiceSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * In classroom mode scenarios are the trainer's to choose (a trainee's `X-Sandbox-Scenario` is
 * refused): one choice for the room, and one per trainee that wins over it. Kept in the classroom's
 * state; the choice in force is written as the trainee merchant's scenario choice in the sandbox, so
 * it applies to their requests, orders and callbacks exactly as a merchant's choice does
 * (docs/scenarios.md).
 */
export class TrainerScenarios {
  private sandbox: SandboxHandle | undefined;
  /** Trainees whose merchant has the choice in force written (a join is followed at its first event). */
  private readonly applied = new Set<string>();

  constructor(
    private readonly store: ClassroomStore,
    classroom: Classroom,
  ) {
    classroom.subscribe((id) => {
      if (id !== null && !this.applied.has(id)) this.apply(id);
    });
  }

  attach(handle: SandboxHandle): void {
    this.sandbox = handle;
    for (const t of this.store.trainees()) this.apply(t.id);
  }

  private room(): ScenarioChoice {
    return readChoice(this.store.getMeta(ROOM_KEY)) ?? [];
  }

  private own(traineeId: string): ScenarioChoice | null {
    return readChoice(this.store.getMeta(traineeKey(traineeId))) ?? null;
  }

  private apply(traineeId: string): void {
    // One row, not the room's: a room of 1,000 joins (and a room-wide choice) stay linear.
    const t = this.store.trainee(traineeId);
    if (!t || !this.sandbox) return;
    this.sandbox.setMerchantScenario(t.login, this.own(t.id) ?? this.room());
    this.applied.add(t.id);
  }

  view(): ScenarioView {
    const room = this.room();
    return {
      room,
      trainees: this.store.trainees().map((t) => {
        const own = this.own(t.id);
        return { id: t.id, name: t.name, own, inForce: own ?? room };
      }),
    };
  }

  setRoom(choice: ScenarioChoice): void {
    this.store.setMeta(ROOM_KEY, JSON.stringify(choice));
    for (const t of this.store.trainees()) this.apply(t.id);
  }

  /** A trainee's own choice; `null` makes them follow the room's again. */
  setTrainee(traineeId: string, choice: ScenarioChoice | null): void {
    if (!this.store.trainee(traineeId))
      throw new ClassroomError(404, 'TRAINEE_UNKNOWN', 'No such trainee: reload the trainer page.');
    // An own choice is kept even when empty (the happy path for this trainee, whatever the room's).
    this.store.setMeta(traineeKey(traineeId), choice === null ? 'null' : JSON.stringify(choice));
    this.apply(traineeId);
  }
}

const choiceBody = z.strictObject({ choice: ScenarioChoiceSchema });
const traineeChoiceBody = z.strictObject({ choice: z.union([ScenarioChoiceSchema, z.null()]) });

function parse<T>(schema: z.ZodType<T>, body: unknown, example: string): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const where = i.path.map(String).join('.');
  throw new ClassroomError(400, 'VALIDATION', `Send ${example}: ${where ? `${where}: ` : ''}${i.message}.`);
}

/** The trainer's scenario control under /classroom (access `trainer`, as the trainer's other routes). */
export async function trainerScenarioRoutes(
  app: FastifyInstance,
  scenarios: TrainerScenarios,
): Promise<void> {
  const TRAINER = { config: { access: 'trainer' } } as const;
  app.get('/trainer/scenarios', TRAINER, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(scenarios.view()),
  );
  app.put('/trainer/scenarios/room', { ...TRAINER, bodyLimit: 4 * 1024 }, async (request, reply) => {
    const body = parse(
      choiceBody,
      request.body,
      '{"choice": [{"name": "final-error"}]} ({"choice": []}: none)',
    );
    scenarios.setRoom(body.choice);
    return reply.header('cache-control', 'no-store').send(scenarios.view());
  });
  app.put<{ Params: { traineeId: string } }>(
    '/trainer/scenarios/trainees/:traineeId',
    { ...TRAINER, bodyLimit: 4 * 1024 },
    async (request, reply) => {
      const body = parse(
        traineeChoiceBody,
        request.body,
        '{"choice": [{"name": "latency", "delayMs": 500}]} ({"choice": null}: follow the room)',
      );
      scenarios.setTrainee(request.params.traineeId.slice(0, 64), body.choice);
      return reply.header('cache-control', 'no-store').send(scenarios.view());
    },
  );
}
