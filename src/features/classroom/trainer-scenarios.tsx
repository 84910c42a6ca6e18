import { useEffect, useId, useState } from 'react';
import { SCENARIOS } from '../../catalog/scenarios.ts';
import { sendJson } from './classroom-api.ts';
import {
  describeChoice,
  pickOf,
  ScenarioViewSchema,
  TrainerScenariosSession,
  type Pick,
  type ScenarioPort,
} from './trainer-scenarios-session.ts';
import { useStore } from '../../ui/use-store.ts';

const port: ScenarioPort = {
  async load() {
    const res = await fetch('/classroom/trainer/scenarios', { headers: { accept: 'application/json' } });
    const parsed = ScenarioViewSchema.safeParse(await res.json().catch(() => null));
    if (!res.ok || !parsed.success) throw new Error(`The scenarios could not be read (${res.status}).`);
    return parsed.data;
  },
  put: (path, body) =>
    sendJson('PUT', `/classroom/trainer/scenarios/${path}`, body, ScenarioViewSchema, 'choosing a scenario'),
};

function Options({ follow }: { follow: boolean }) {
  return (
    <>
      {follow ? <option value="room">Follow the room</option> : null}
      <option value="none">None (happy path)</option>
      {SCENARIOS.map((s) => (
        <option key={s.name} value={s.name}>
          {s.title} ({s.name})
        </option>
      ))}
    </>
  );
}

/**
 * The trainer's scenario control: one choice for the room and one per trainee (trainees cannot
 * send X-Sandbox-Scenario in the classroom). `traineeCount` reloads the list when someone joins.
 */
export function TrainerScenarios({ traineeCount }: { traineeCount: number }) {
  const [model] = useState(() => new TrainerScenariosSession(port));
  const s = useStore(model);
  const [delay, setDelay] = useState('');
  const ids = { title: useId(), room: useId(), delay: useId() };
  useEffect(() => void model.load(), [model, traineeCount]);
  const delayMs = /^\d{1,6}$/.test(delay.trim()) ? Number(delay.trim()) : undefined;
  return (
    <section aria-labelledby={ids.title}>
      <h2 id={ids.title}>Scenarios</h2>
      <p className="cl-note">
        The sandbox answers each trainee as the scenario in force says (docs/scenarios.md); trainees cannot
        choose one themselves.
      </p>
      {s.error ? (
        <p className="cl-error" role="alert">
          {s.error}
        </p>
      ) : null}
      <div className="cl-controls">
        <label htmlFor={ids.delay}>Delay for the scenarios that take one (ms, empty: their default)</label>{' '}
        <input
          id={ids.delay}
          inputMode="numeric"
          value={delay}
          onChange={(e) => setDelay(e.target.value)}
          size={8}
        />
      </div>
      {s.view ? (
        <>
          <div className="cl-controls">
            <label htmlFor={ids.room}>For the room</label>{' '}
            <select
              id={ids.room}
              value={pickOf(s.view.room)}
              disabled={s.busy}
              onChange={(e) => void model.setRoom(e.target.value as Exclude<Pick, 'room'>, delayMs)}
            >
              <Options follow={false} />
            </select>{' '}
            <span className="cl-muted">in force: {describeChoice(s.view.room)}</span>
          </div>
          <div className="cl-table-wrap">
            <table className="cl-table" aria-label="Scenario per trainee">
              <thead>
                <tr>
                  <th scope="col">Trainee</th>
                  <th scope="col">Scenario</th>
                  <th scope="col">In force</th>
                </tr>
              </thead>
              <tbody>
                {s.view.trainees.map((t) => (
                  <tr key={t.id}>
                    <th scope="row">{t.name}</th>
                    <td>
                      <select
                        aria-label={`Scenario for ${t.name}`}
                        value={pickOf(t.own)}
                        disabled={s.busy}
                        onChange={(e) => void model.setTrainee(t.id, e.target.value as Pick, delayMs)}
                      >
                        <Options follow />
                      </select>
                    </td>
                    <td>{describeChoice(t.inForce)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
