import { useEffect, useId, useState } from 'react';
import { followEvents, postJson, TraineeViewSchema, type Live, type TraineeView } from './classroom-api.ts';
import './classroom.css';

const STATE_LABEL = {
  done: 'Done',
  pending: 'Waiting for the final status',
  open: 'Open',
  locked: 'Locked',
} as const;

type Exercise = TraineeView['exercises'][number];

function Question({ ex, onAnswered }: { ex: Exercise; onAnswered: (v: TraineeView) => void }) {
  const groupId = useId();
  const [choice, setChoice] = useState(ex.answer ?? '');
  const [error, setError] = useState<string | null>(null);
  if (!ex.choices || !ex.capture) return null;
  const send = () =>
    postJson('/classroom/answer', { exerciseId: ex.id, choice }, TraineeViewSchema, 'your answer').then(
      (v) => {
        setError(null);
        onAnswered(v);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  return (
    <div className="cl-question">
      <pre className="cl-capture" aria-label="The broken request" tabIndex={0}>
        {ex.capture}
      </pre>
      <fieldset disabled={ex.locked || ex.state === 'done'}>
        <legend id={groupId}>What is its mistake?</legend>
        {ex.choices.map((c) => (
          <label key={c} className="cl-choice">
            <input
              type="radio"
              name={`${ex.id}-choice`}
              value={c}
              checked={choice === c}
              onChange={() => setChoice(c)}
            />
            <code>{c}</code>
          </label>
        ))}
        <button type="button" className="cl-button" disabled={choice === ''} onClick={() => void send()}>
          Answer
        </button>
      </fieldset>
      {ex.answer ? <p className="cl-note">Your answer: {ex.answer}</p> : null}
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The trainee's exercises: goal, hints the trainer revealed, and the server's live verdict. */
export function ExercisesPage({ onOpenOperation }: { onOpenOperation: (path: string) => void }) {
  const [live, setLive] = useState<Live<TraineeView>>({ kind: 'connecting' });
  useEffect(() => followEvents('/classroom/events', '/classroom/me', TraineeViewSchema, setLive), []);

  if (live.kind === 'connecting') return <p role="status">Connecting to the classroom…</p>;
  if (live.kind === 'refused')
    return (
      <section className="cl-page">
        <h1>Exercises</h1>
        <p className="cl-error" role="alert">
          {live.message} <a href="/join">Join the classroom</a>.
        </p>
      </section>
    );
  const { trainee, exercises } = live.data;
  const done = exercises.filter((e) => e.state === 'done').length;
  return (
    <section className="cl-page" aria-labelledby="cl-exercises-title">
      <h1 id="cl-exercises-title">Exercises</h1>
      <p className="cl-note">
        {trainee.name}: merchant <code>{trainee.login}</code>, endpoint <code>{trainee.endpointId}</code>,
        group <code>{trainee.endpointGroupId}</code>. {done} of {exercises.length} done. The classroom checks
        your real requests to the sandbox.
      </p>
      <ol className="cl-exercises">
        {exercises.map((ex) => (
          <li key={ex.id} className="cl-exercise" aria-labelledby={`cl-ex-${ex.id}`} data-state={ex.state}>
            <h2 id={`cl-ex-${ex.id}`}>{ex.title}</h2>
            <p className="cl-status" role="status" aria-label={`Status of ${ex.title}`}>
              <strong className={`cl-badge cl-badge-${ex.state}`}>{STATE_LABEL[ex.state]}</strong>{' '}
              <span>
                {ex.detail} · {ex.attempts} {ex.attempts === 1 ? 'attempt' : 'attempts'}
              </span>
            </p>
            <p>{ex.goal}</p>
            {ex.operation ? (
              <p>
                <a
                  href={`/ops/${ex.operation}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onOpenOperation(ex.operation!);
                  }}
                >
                  Open {ex.operation} in the workbench
                </a>
              </p>
            ) : null}
            <Question ex={ex} onAnswered={(v) => setLive({ kind: 'live', data: v })} />
            {ex.hints.length > 0 ? (
              <div className="cl-hints">
                <h3>Hints</h3>
                <ul>
                  {ex.hints.map((h) => (
                    <li key={h}>{h}</li>
                  ))}
                </ul>
              </div>
            ) : ex.hintsTotal > 0 ? (
              <p className="cl-note">The trainer can reveal {ex.hintsTotal} hints.</p>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
