import { useEffect, useState } from 'react';
import { z } from 'zod/mini';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import {
  followTrainerEvents,
  postJson,
  RestoreKeyAnswerSchema,
  trainerRefusal,
  type ExerciseStatus,
  type Live,
  type TrainerSnapshot,
} from './classroom-api.ts';
import { LockedMark } from './lock-icon.tsx';
import { RestoreKeyText } from './restore-key-text.tsx';
import { VariantsTable } from './variants-table.tsx';
import { AutoHintControl } from './auto-hint-control.tsx';
import './classroom.css';
import { TrainerScenarios } from './trainer-scenarios.tsx';
import { CertificateLinks, ExamPanel } from './exam-panel.tsx';
import { PushedCapturePanel } from './pushed-capture-panel.tsx';
import { ProjectionView } from './projection-view.tsx';
import { errorText } from '../../core/errors.ts';

const Ok = z.looseObject({});

type Trainee = TrainerSnapshot['trainees'][number];
type WrongChoice = Trainee['wrongChoices'][number];
type Exercise = TrainerSnapshot['exercises'][number];

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const times = (w: WrongChoice) => (w.count > 1 ? ` ×${w.count}` : '');

function Cell({
  r,
  title,
  wrong,
  hints = [],
  assisted = false,
}: {
  r: ExerciseStatus | undefined;
  title: string;
  wrong: readonly WrongChoice[];
  hints?: ReadonlyArray<{ label: string }>;
  assisted?: boolean;
}) {
  if (!r) return <td />;
  const extra = `${assisted ? ', assisted' : ''}${hints.length > 0 ? `, hints: ${hints.map((h) => h.label).join(', ')}` : ''}`;
  const mark =
    r.state === 'done' ? '✓' : r.state === 'pending' ? '…' : r.state === 'locked' ? <LockedMark /> : '·';
  const time = r.doneAt !== null && r.startedAt !== null ? `, ${duration(r.doneAt - r.startedAt)}` : '';
  const wrongText = wrong.map((w) => `${w.label}${times(w)}`).join(', ');
  return (
    <td
      data-state={r.state}
      aria-label={`${title}: ${r.state}, ${r.attempts} attempts${time}${wrongText ? `, wrong answers: ${wrongText}` : ''}${extra}`}
      title={r.detail}
    >
      <span className={`cl-badge cl-badge-${r.state}`}>{mark}</span> {r.attempts}
      {time ? <span className="cl-time">{time}</span> : null}
      {extra ? (
        <span className="cl-muted">
          <br />
          {extra.slice(2)}
        </span>
      ) : null}
      {wrong.length > 0 ? (
        <span className="cl-wrong">
          <br />
          wrong: {wrongText}
        </span>
      ) : null}
    </td>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a reset deletes, from the trainer's own table: done exercises, attempts, wrong answers. */
function ResetLoss({ t, exercises }: { t: Trainee; exercises: readonly Exercise[] }) {
  const title = (id: string) => exercises.find((e) => e.id === id)?.title ?? id;
  const touched = t.results.filter((r) => r.state === 'done' || r.attempts > 0);
  const attempts = t.results.reduce((n, r) => n + r.attempts, 0);
  return (
    <>
      <p>
        {t.name}&apos;s progress and attempts are deleted for good: {plural(t.done, 'exercise')} done,{' '}
        {plural(attempts, 'attempt')} in all
        {t.wrongChoices.length > 0
          ? `, ${plural(
              t.wrongChoices.reduce((n, w) => n + w.count, 0),
              'wrong answer',
            )}`
          : ''}
        {t.lastRefused ? ', and their last refused request' : ''}.
      </p>
      {touched.length > 0 ? (
        <ul>
          {touched.map((r) => (
            <li key={r.id}>
              {title(r.id)}: {r.state === 'done' ? 'done' : r.state}, {plural(r.attempts, 'attempt')}
              {t.wrongChoices
                .filter((w) => w.exerciseId === r.id)
                .map((w) => `; wrong answer ${w.label}${times(w)}`)
                .join('')}
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        Their merchant <code>{t.login}</code>, its keys and its sandbox orders stay; every exercise starts
        again from their next request.
      </p>
    </>
  );
}

type Pending = { kind: 'reset' | 'restore'; trainee: Trainee } | null;

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
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [projected, setProjected] = useState<string | null>(null);
  useEffect(() => followTrainerEvents('/classroom/trainer/events', trainerRefusal, setLive), []);
  const failed = (e: unknown) => setActionError(errorText(e));
  const act = (url: string, body: unknown, what: string) =>
    postJson(url, body, Ok, what).then(() => setActionError(null), failed);
  // Through the classroom (not the sandbox's key route), so it knows which key the restore replaced.
  const restoreKey = (t: Trainee) =>
    postJson(
      '/classroom/trainer/restore-key',
      { traineeId: t.id },
      RestoreKeyAnswerSchema,
      `restoring ${t.name}'s key`,
    ).then((r) => {
      setActionError(null);
      setNotice(
        `${r.restored ? 'Restored' : 'Nothing to restore'}: the sandbox verifies the RSA signatures of ${t.name} (${r.login}) with the key they joined with (RSA-${r.current.keyBits}, fingerprint ${r.current.keyFingerprint}).`,
      );
    }, failed);
  const confirmPending = () => {
    if (!pending) return;
    setPending(null);
    setNotice(null);
    const t = pending.trainee;
    if (pending.kind === 'reset')
      void act('/classroom/trainer/reset', { traineeId: t.id }, `resetting ${t.name}`);
    else void restoreKey(t);
  };

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
        {s.trainees.length} {s.trainees.length === 1 ? 'trainee' : 'trainees'} ·{' '}
        <span role="status" className={live.lost ? 'cl-error' : undefined}>
          {live.lost ? 'connection lost, reconnecting…' : 'updated live'}
        </span>{' '}
        ·{' '}
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
      {notice ? (
        <p className="cl-note" role="status">
          {notice}
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
                  {t.name}{' '}
                  <span className="cl-muted">
                    ({t.done} done{t.points !== undefined ? `, ${t.points} points` : ''})
                  </span>
                </th>
                {s.exercises.map((e) => (
                  <Cell
                    key={e.id}
                    r={t.results.find((r) => r.id === e.id)}
                    title={e.title}
                    wrong={t.wrongChoices.filter((w) => w.exerciseId === e.id)}
                    hints={(t.hints ?? []).filter((h) => h.exerciseId === e.id)}
                    assisted={(t.assisted ?? []).includes(e.id)}
                  />
                ))}
                <td className="cl-refused">
                  {t.lastRefused ? (
                    <>
                      <code>{t.lastRefused.operation ?? '?'}</code> <strong>{t.lastRefused.errorCode}</strong>
                      {t.lastRefused.mistakeId ? (
                        <> · mistake {t.lastRefused.mistakeLabel ?? t.lastRefused.mistakeId}</>
                      ) : null}
                      {t.lastRefused.cause === 'trainer-restore' ? (
                        <> · caused by your key restore, not counted as a mistake</>
                      ) : null}
                      <br />
                      <span className="cl-muted">{t.lastRefused.errorMessage}</span>
                    </>
                  ) : (
                    <span className="cl-muted">none</span>
                  )}
                </td>
                <td className="cl-actions">
                  <button type="button" className="cl-button" onClick={() => setProjected(t.id)}>
                    Project {t.name}’s attempts
                  </button>
                  <button
                    type="button"
                    className="cl-button"
                    onClick={() => setPending({ kind: 'reset', trainee: t })}
                  >
                    Reset {t.name}
                  </button>
                  <button
                    type="button"
                    className="cl-button"
                    onClick={() => setPending({ kind: 'restore', trainee: t })}
                  >
                    Restore the key {t.name} joined with
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <PushedCapturePanel />
      <VariantsTable s={s} />
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
            <AutoHintControl
              e={e}
              onSet={(after, cost) =>
                void act(
                  '/classroom/trainer/auto-hints',
                  { exerciseId: e.id, after, cost },
                  'setting the self-unlocking hints',
                )
              }
            />
          </li>
        ))}
      </ul>
      <ExamPanel version={s.at} />
      <CertificateLinks trainees={s.trainees} />
      <TrainerScenarios traineeCount={s.trainees.length} />
      <h2>The room’s mistakes</h2>
      {s.mistakes.length === 0 ? (
        <p className="cl-muted">No diagnosed mistake yet.</p>
      ) : (
        <ul className="cl-histogram" aria-label="Mistakes">
          {s.mistakes.map((m) => (
            <li key={m.mistakeId} aria-label={`${m.label}: ${m.count}`}>
              <span>
                {m.label} <code className="cl-muted">{m.mistakeId}</code>
              </span>
              <span className="cl-bar" style={{ width: `${(m.count / max) * 100}%` }} />
              <span>{m.count}</span>
            </li>
          ))}
        </ul>
      )}
      {projected ? <ProjectionView traineeId={projected} onClose={() => setProjected(null)} /> : null}
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.kind === 'restore'
            ? `Restore the key ${pending.trainee.name} joined with?`
            : `Reset ${pending?.trainee.name ?? ''}?`
        }
        confirmLabel={pending?.kind === 'restore' ? 'Restore the key' : 'Reset and delete the progress'}
        onConfirm={confirmPending}
        onCancel={() => setPending(null)}
      >
        {pending?.kind === 'reset' ? <ResetLoss t={pending.trainee} exercises={s.exercises} /> : null}
        {pending?.kind === 'restore' ? (
          <RestoreKeyText
            traineeId={pending.trainee.id}
            name={pending.trainee.name}
            login={pending.trainee.login}
            now={s.at}
          />
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
