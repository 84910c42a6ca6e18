import { useEffect, useId, useState } from 'react';
import { TrainerPushSchema, type TrainerPush } from '../../contracts/pushed-capture.ts';
import { errorText } from '../../core/errors.ts';
import { followEvents, postJson, trainerRefusal, type Live } from './classroom-api.ts';

/**
 * "What is wrong with this one?" on the trainer page: push a broken capture to every trainee's
 * debugger and watch the answers arrive, each graded against the diagnosis engine's finding.
 */
export function PushedCapturePanel() {
  const headingId = useId();
  const [live, setLive] = useState<Live<TrainerPush>>({ kind: 'connecting' });
  const [mistake, setMistake] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () => followEvents('/classroom/trainer/push/events', trainerRefusal, TrainerPushSchema, setLive),
    [],
  );
  if (live.kind !== 'live') return null;
  const { push: p, mistakes } = live.data;
  const act = (url: string, body: unknown, what: string) =>
    postJson(url, body, TrainerPushSchema, what).then(
      (v) => {
        setError(null);
        setLive({ kind: 'live', data: v });
      },
      (e: unknown) => setError(errorText(e)),
    );
  const right = p ? p.answers.filter((a) => a.right).length : 0;
  return (
    <section className="cl-pushed" aria-labelledby={headingId}>
      <h2 id={headingId}>What is wrong with this one?</h2>
      <p className="cl-note">
        Push a broken capture to every trainee’s debugger; each answer is graded against what the diagnosis
        engine finds in it.
      </p>
      <div className="cl-join">
        <label>
          Mistake to make{' '}
          <select value={mistake} onChange={(e) => setMistake(e.target.value)}>
            <option value="">any</option>
            {mistakes.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="cl-button"
          onClick={() => void act('/classroom/trainer/push', mistake ? { mistake } : {}, 'pushing a capture')}
        >
          Push a broken capture to every trainee
        </button>
        {p && !p.closed ? (
          <button
            type="button"
            className="cl-button"
            onClick={() => void act('/classroom/trainer/push/close', {}, 'closing the question')}
          >
            Close the question
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
      {p ? (
        <>
          <pre className="cl-capture" aria-label="The pushed capture" tabIndex={0}>
            {p.capture}
          </pre>
          <details>
            <summary>The engine’s finding (not for the projector)</summary>
            {p.finding.label} <code>{p.finding.id}</code>
          </details>
          <p role="status" className="cl-note">
            {p.closed ? 'Closed · ' : ''}
            {p.answers.length} answered · {right} right · {p.answers.length - right} wrong ·{' '}
            {p.waiting.length} waiting
          </p>
          <table className="cl-table" aria-label="Answers to the pushed capture">
            <thead>
              <tr>
                <th scope="col">Trainee</th>
                <th scope="col">Named</th>
                <th scope="col">Graded</th>
              </tr>
            </thead>
            <tbody>
              {p.answers.map((a) => (
                <tr key={a.traineeId} aria-label={a.name}>
                  <th scope="row">{a.name}</th>
                  <td>{a.choice.label}</td>
                  <td data-right={a.right}>{a.right ? 'right' : 'wrong'}</td>
                </tr>
              ))}
              {p.waiting.map((w) => (
                <tr key={w.traineeId} aria-label={w.name}>
                  <th scope="row">{w.name}</th>
                  <td className="cl-muted">no answer yet</td>
                  <td />
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
