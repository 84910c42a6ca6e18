import { useEffect, useState } from 'react';
import { z } from 'zod';
import {
  followEvents,
  postJson,
  TrainerSnapshotSchema,
  type ExerciseStatus,
  type Live,
  type TrainerSnapshot,
} from './classroom-api.ts';
import './classroom.css';

const Ok = z.looseObject({});

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function Cell({ r, title }: { r: ExerciseStatus | undefined; title: string }) {
  if (!r) return <td />;
  const mark = r.state === 'done' ? '✓' : r.state === 'pending' ? '…' : r.state === 'locked' ? '🔒' : '·';
  const time = r.doneAt !== null && r.startedAt !== null ? `, ${duration(r.doneAt - r.startedAt)}` : '';
  return (
    <td
      data-state={r.state}
      aria-label={`${title}: ${r.state}, ${r.attempts} attempts${time}`}
      title={r.detail}
    >
      <span className={`cl-badge cl-badge-${r.state}`}>{mark}</span> {r.attempts}
      {time ? <span className="cl-time">{time}</span> : null}
    </td>
  );
}

/** The join address as this browser reached the server, and its QR code for the projector. */
function JoinCode() {
  const joinUrl = `${location.origin}/join`;
  const loopback = /^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
  return (
    <section className="cl-joincode" aria-labelledby="cl-join-title">
      <h2 id="cl-join-title">Join</h2>
      <figure>
        <img
          src="/classroom/trainer/join-qr.svg"
          alt={`QR code of the join address ${joinUrl}`}
          width={176}
          height={176}
        />
        <figcaption>
          Trainees open <code>{joinUrl}</code>
        </figcaption>
      </figure>
      {loopback ? (
        <p className="cl-note">
          This address is on loopback: other machines cannot open it. Start the classroom with HOST=0.0.0.0
          (or this machine's address) and open the trainer address it prints.
        </p>
      ) : null}
    </section>
  );
}

/** The trainer's live view of the room, and its controls: hints, locks, resets, exports. */
export function TrainerPage() {
  const [live, setLive] = useState<Live<TrainerSnapshot>>({ kind: 'connecting' });
  const [actionError, setActionError] = useState<string | null>(null);
  useEffect(
    () =>
      followEvents('/classroom/trainer/events', '/classroom/trainer/state', TrainerSnapshotSchema, setLive),
    [],
  );
  const act = (url: string, body: unknown, what: string) =>
    postJson(url, body, Ok, what).then(
      () => setActionError(null),
      (e: unknown) => setActionError(e instanceof Error ? e.message : String(e)),
    );

  if (live.kind === 'connecting') return <p role="status">Connecting to the classroom…</p>;
  if (live.kind === 'refused')
    return (
      <section className="cl-page">
        <h1>Trainer</h1>
        <p className="cl-error" role="alert">
          {live.message}
        </p>
      </section>
    );
  const s = live.data;
  const max = Math.max(1, ...s.mistakes.map((m) => m.count));
  return (
    <section className="cl-page cl-trainer" aria-labelledby="cl-trainer-title">
      <h1 id="cl-trainer-title">Trainer</h1>
      <p className="cl-note">
        {s.trainees.length} {s.trainees.length === 1 ? 'trainee' : 'trainees'} · updated live ·{' '}
        <a href="/classroom/trainer/export.csv" download>
          Export CSV
        </a>{' '}
        ·{' '}
        <a href="/classroom/trainer/export.json" download>
          Export JSON
        </a>
      </p>
      {actionError ? (
        <p className="cl-error" role="alert">
          {actionError}
        </p>
      ) : null}
      <JoinCode />
      <h2>Room</h2>
      <div className="cl-table-wrap">
        <table className="cl-table" aria-label="Trainees and exercises">
          <thead>
            <tr>
              <th scope="col">Trainee</th>
              {s.exercises.map((e) => (
                <th scope="col" key={e.id} className="cl-col">
                  {e.title}
                </th>
              ))}
              <th scope="col">Last refused request</th>
              <th scope="col">
                <span className="cl-sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {s.trainees.map((t) => (
              <tr key={t.id} aria-label={t.name}>
                <th scope="row">
                  {t.name} <span className="cl-muted">({t.done} done)</span>
                </th>
                {s.exercises.map((e) => (
                  <Cell key={e.id} r={t.results.find((r) => r.id === e.id)} title={e.title} />
                ))}
                <td className="cl-refused">
                  {t.lastRefused ? (
                    <>
                      <code>{t.lastRefused.operation ?? '?'}</code> <strong>{t.lastRefused.errorCode}</strong>
                      {t.lastRefused.mistakeId ? <> · mistake {t.lastRefused.mistakeId}</> : null}
                      <br />
                      <span className="cl-muted">{t.lastRefused.errorMessage}</span>
                    </>
                  ) : (
                    <span className="cl-muted">none</span>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="cl-button"
                    onClick={() =>
                      void act('/classroom/trainer/reset', { traineeId: t.id }, 'resetting the trainee')
                    }
                  >
                    Reset {t.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Exercises</h2>
      <ul className="cl-controls">
        {s.exercises.map((e) => (
          <li key={e.id}>
            <span>{e.title}</span>
            <button
              type="button"
              className="cl-button"
              aria-label={`Reveal a hint of ${e.title} (${e.hintsShown}/${e.hintsTotal})`}
              disabled={e.hintsShown >= e.hintsTotal}
              onClick={() => void act('/classroom/trainer/hint', { exerciseId: e.id }, 'revealing a hint')}
            >
              Reveal a hint ({e.hintsShown}/{e.hintsTotal})
            </button>
            <button
              type="button"
              className="cl-button"
              onClick={() =>
                void act(
                  '/classroom/trainer/lock',
                  { exerciseId: e.id, locked: !e.locked },
                  'locking the exercise',
                )
              }
            >
              {e.locked ? 'Open' : 'Lock'}
            </button>
          </li>
        ))}
      </ul>
      <h2>The room’s mistakes</h2>
      {s.mistakes.length === 0 ? (
        <p className="cl-muted">No diagnosed mistake yet.</p>
      ) : (
        <ul className="cl-histogram" aria-label="Mistakes">
          {s.mistakes.map((m) => (
            <li key={m.mistakeId} aria-label={`${m.mistakeId}: ${m.count}`}>
              <code>{m.mistakeId}</code>
              <span className="cl-bar" style={{ width: `${(m.count / max) * 100}%` }} />
              <span>{m.count}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
