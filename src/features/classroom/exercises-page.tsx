import { ExamBanner, useExam } from './exam-panel.tsx';
import { useEffect, useId, useState, type MouseEvent } from 'react';
import type { CryptoPort } from '../../core/index.ts';
import { captureLinkHref } from '../../model/capture-link.ts';
import {
  followEvents,
  postJson,
  traineeRefusal,
  TraineeViewSchema,
  type Live,
  type TraineeView,
} from './classroom-api.ts';
import { replaceTraineeKey } from './trainee-key.ts';
import { OwnHints } from './own-hints.tsx';
import './classroom.css';
import { errorText } from '../../core/errors.ts';

const STATE_LABEL = {
  done: 'Done',
  pending: 'Waiting for the final status',
  open: 'Open',
  locked: 'Locked',
} as const;

type Exercise = TraineeView['exercises'][number];
type Navigate = (href: string) => void;

function message(e: unknown): string {
  return errorText(e);
}

/** A link the app's router follows (a plain click), or the browser (a new tab, a modified click). */
function AppLink({ href, onNavigate, children }: { href: string; onNavigate: Navigate; children: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onNavigate(href);
  };
  return (
    <a href={href} onClick={click}>
      {children}
    </a>
  );
}

function Question({
  ex,
  onAnswered,
  onNavigate,
}: {
  ex: Exercise;
  onAnswered: (v: TraineeView) => void;
  onNavigate: Navigate;
}) {
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
      (e: unknown) => setError(message(e)),
    );
  const answered = ex.choices.find((c) => c.id === ex.answer);
  return (
    <div className="cl-question">
      <pre className="cl-capture" aria-label="The broken request" tabIndex={0}>
        {ex.capture}
      </pre>
      <p>
        <AppLink href={captureLinkHref(ex.capture)} onNavigate={onNavigate}>
          Open this capture in the debugger
        </AppLink>
      </p>
      <fieldset disabled={ex.locked || ex.state === 'done'}>
        <legend id={groupId}>What is its mistake?</legend>
        {ex.choices.map((c) => (
          <label key={c.id} className="cl-choice">
            <input
              type="radio"
              name={`${ex.id}-choice`}
              value={c.id}
              checked={choice === c.id}
              onChange={() => setChoice(c.id)}
            />
            {c.label}
          </label>
        ))}
        <button type="button" className="cl-button" disabled={choice === ''} onClick={() => void send()}>
          Answer
        </button>
      </fieldset>
      {ex.answer ? <p className="cl-note">Your answer: {answered?.label ?? ex.answer}</p> : null}
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A new key pair for the trainee's own merchant, when the one they joined with was lost or replaced. */
function NewKey({ login, crypto }: { login: string; crypto: CryptoPort }) {
  const headingId = useId();
  const [step, setStep] = useState<'idle' | 'keys' | 'registering'>('idle');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const run = () => {
    setResult(null);
    replaceTraineeKey(login, crypto, setStep).then(
      (r) => {
        setStep('idle');
        setResult({
          ok: true,
          text: `Registered: the sandbox verifies your RSA signatures with your new key (RSA-${r.keyBits}, fingerprint ${r.keyFingerprint}); this browser keeps its private key with your classroom credentials.`,
        });
      },
      (e: unknown) => {
        setStep('idle');
        setResult({ ok: false, text: message(e) });
      },
    );
  };
  return (
    <section className="cl-key" aria-labelledby={headingId}>
      <h2 id={headingId}>Your key</h2>
      <p className="cl-note">
        If your RSA requests are refused because your key was lost or replaced, make a new key pair here: only
        its public key is sent, and the sandbox verifies <code>{login}</code> with it from then on.
      </p>
      <button type="button" className="cl-button" disabled={step !== 'idle'} onClick={run}>
        {step === 'keys'
          ? 'Making your key pair…'
          : step === 'registering'
            ? 'Registering…'
            : 'Make a new key pair and register it'}
      </button>
      {result ? (
        <p className={result.ok ? 'cl-note' : 'cl-error'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </p>
      ) : null}
    </section>
  );
}

/** The trainee's exercises: goal, hints the trainer revealed, and the server's live verdict. */
export function ExercisesPage({ crypto, onNavigate }: { crypto: CryptoPort; onNavigate: Navigate }) {
  const [live, setLive] = useState<Live<TraineeView>>({ kind: 'connecting' });
  useEffect(() => followEvents('/classroom/events', traineeRefusal, TraineeViewSchema, setLive), []);
  const [exam] = useExam('/classroom/exam', live.kind === 'live' ? live.data : null);

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
      {live.lost ? (
        <p className="cl-error" role="status">
          Connection lost, reconnecting… (what you see may be out of date)
        </p>
      ) : null}
      <ExamBanner exam={exam} />
      <p className="cl-note">
        {trainee.name}: merchant <code>{trainee.login}</code>, endpoint <code>{trainee.endpointId}</code>,
        group <code>{trainee.endpointGroupId}</code>. {done} of {exercises.length} done
        {live.data.points !== undefined ? `, ${live.data.points} points` : ''}. The classroom checks your real
        requests to the sandbox.
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
                <AppLink href={`/ops/${ex.operation}`} onNavigate={onNavigate}>
                  {`Open ${ex.operation} in the workbench`}
                </AppLink>
              </p>
            ) : null}
            <Question
              ex={ex}
              onAnswered={(v) => setLive({ kind: 'live', data: v })}
              onNavigate={onNavigate}
            />
            <OwnHints
              ex={ex}
              exam={exam !== null && exam.state !== 'none'}
              onChanged={(v) => setLive({ kind: 'live', data: v })}
            />
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
      <p className="cl-note">
        <a href="/classroom/certificate" download>
          Download your certificate
        </a>{' '}
        (the exercises you passed, signed by the classroom; <code>paysign certificate verify</code> checks
        it).
      </p>
      <NewKey login={trainee.login} crypto={crypto} />
      <p className="cl-note">
        Your classroom credentials (control key and private key) are kept in this browser (IndexedDB,
        unencrypted) until you leave the classroom (&ldquo;Leave this classroom&rdquo; in the profile bar).
      </p>
    </section>
  );
}
