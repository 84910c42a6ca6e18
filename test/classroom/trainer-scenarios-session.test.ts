import { describe, expect, it } from 'vitest';
import {
  describeChoice,
  pickOf,
  TrainerScenariosSession,
  type ScenarioPort,
  type ScenarioView,
} from '../../src/features/classroom/trainer-scenarios-session.ts';

/** A fake server: keeps the room's and trainees' choices as the classroom's API does. */
function fakePort() {
  const view: ScenarioView = {
    room: [],
    trainees: [{ id: 't1', name: 'Ann', own: null, inForce: [] }],
  };
  const sent: Array<{ path: string; body: unknown }> = [];
  const port: ScenarioPort = {
    load: async () => structuredClone(view),
    put: async (path, body) => {
      sent.push({ path, body });
      const choice = (body as { choice: ScenarioView['room'] | null }).choice;
      if (path === 'room') view.room = choice ?? [];
      else view.trainees[0]!.own = choice;
      for (const t of view.trainees) t.inForce = t.own ?? view.room;
      if (path === 'fail') throw new Error('refused');
      return structuredClone(view);
    },
  };
  return { port, sent };
}

describe('TrainerScenariosSession', () => {
  it('sends the room’s choice with the delay for a scenario that takes one, and none for one that does not', async () => {
    const { port, sent } = fakePort();
    const m = new TrainerScenariosSession(port);
    await m.load();
    await m.setRoom('latency', 600_000);
    await m.setRoom('final-error', 600_000);
    expect(sent.map((s) => s.body)).toEqual([
      { choice: [{ name: 'latency', delayMs: 600_000 }] },
      { choice: [{ name: 'final-error' }] },
    ]);
    expect(m.getSnapshot().view!.trainees[0]!.inForce).toEqual([{ name: 'final-error' }]);
  });

  it('lets a trainee follow the room again (null) or have none of their own ([])', async () => {
    const { port, sent } = fakePort();
    const m = new TrainerScenariosSession(port);
    await m.setTrainee('t1', 'none');
    expect(pickOf(m.getSnapshot().view!.trainees[0]!.own)).toBe('none');
    await m.setTrainee('t1', 'room');
    expect(sent.map((s) => s.body)).toEqual([{ choice: [] }, { choice: null }]);
    expect(pickOf(m.getSnapshot().view!.trainees[0]!.own)).toBe('room');
  });

  it('keeps the server’s refusal to show, and notifies its subscribers', async () => {
    const m = new TrainerScenariosSession({
      load: async () => {
        throw new Error('Open the trainer address printed by npm run classroom.');
      },
      put: async () => {
        throw new Error('x');
      },
    });
    let calls = 0;
    m.subscribe(() => (calls += 1));
    await m.load();
    expect(m.getSnapshot().error).toMatch(/trainer address/);
    expect(calls).toBeGreaterThan(0);
  });

  it('describes a choice for the table', () => {
    expect(describeChoice([])).toBe('none (happy path)');
    expect(describeChoice([{ name: 'latency', delayMs: 500 }])).toBe('latency (500 ms)');
  });
});
