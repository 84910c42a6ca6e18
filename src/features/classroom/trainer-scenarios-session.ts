import { z } from 'zod/mini';
import { ScenarioChoiceSchema, SCENARIOS, type ScenarioChoice } from '../../catalog/scenarios.ts';
import { errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

/* The trainer's scenario control (classroom mode: trainees cannot choose scenarios themselves). */

export const ScenarioViewSchema = z.object({
  room: ScenarioChoiceSchema,
  trainees: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      own: z.nullable(ScenarioChoiceSchema),
      inForce: ScenarioChoiceSchema,
    }),
  ),
});
export type ScenarioView = z.infer<typeof ScenarioViewSchema>;

/** How the model reaches the server: the page passes fetch-based calls, the spec fakes them. */
export interface ScenarioPort {
  load(): Promise<ScenarioView>;
  put(path: string, body: unknown): Promise<ScenarioView>;
}

/** One select's value: `none`, `room` (a trainee follows the room) or a scenario's name. */
export type Pick = 'none' | 'room' | (typeof SCENARIOS)[number]['name'];

export interface ScenarioState {
  view: ScenarioView | null;
  error: string | null;
  busy: boolean;
}

/** The select's value of a choice (the first scenario of it; the page sets one at a time). */
export function pickOf(choice: ScenarioChoice | null): Pick {
  if (choice === null) return 'room';
  return choice[0]?.name ?? 'none';
}

/** A choice as the table shows it: `latency (600000 ms)`, or `none`. */
export function describeChoice(choice: ScenarioChoice): string {
  if (choice.length === 0) return 'none (happy path)';
  return choice.map((p) => (p.delayMs === undefined ? p.name : `${p.name} (${p.delayMs} ms)`)).join(', ');
}

function choiceOf(pick: Pick, delayMs: number | undefined): ScenarioChoice | null {
  if (pick === 'room') return null;
  if (pick === 'none') return [];
  const spec = SCENARIOS.find((s) => s.name === pick);
  return [
    spec && 'defaultDelayMs' in spec && delayMs !== undefined ? { name: pick, delayMs } : { name: pick },
  ];
}

/** Headless: the room's and each trainee's choice, read and changed through the port. */
export class TrainerScenariosSession extends Store<ScenarioState> {
  protected snap: ScenarioState = { view: null, error: null, busy: false };

  constructor(private readonly port: ScenarioPort) {
    super();
  }

  private set(patch: Partial<ScenarioState>): void {
    this.snap = { ...this.snap, ...patch };
    this.notify();
  }

  private async run(call: () => Promise<ScenarioView>): Promise<void> {
    this.set({ busy: true });
    try {
      this.set({ view: await call(), error: null, busy: false });
    } catch (e) {
      this.set({ error: errorText(e), busy: false });
    }
  }

  load(): Promise<void> {
    return this.run(() => this.port.load());
  }

  /** The room's choice: every trainee without their own follows it. */
  setRoom(pick: Exclude<Pick, 'room'>, delayMs?: number): Promise<void> {
    return this.run(() => this.port.put('room', { choice: choiceOf(pick, delayMs) ?? [] }));
  }

  /** One trainee's own choice, or `room` to follow the room's again. */
  setTrainee(traineeId: string, pick: Pick, delayMs?: number): Promise<void> {
    return this.run(() =>
      this.port.put(`trainees/${encodeURIComponent(traineeId)}`, { choice: choiceOf(pick, delayMs) }),
    );
  }
}
