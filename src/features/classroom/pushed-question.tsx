import { useEffect, useId, useState, type MouseEvent } from 'react';
import { TraineePushSchema, type TraineePush } from '../../contracts/pushed-capture.ts';
import { errorText } from '../../core/errors.ts';
import { captureLinkHref } from '../../model/capture-link.ts';
import { followEvents, postJson, traineeRefusal, type Live } from './classroom-api.ts';
import './classroom.css';

type Push = NonNullable<TraineePush['push']>;

function Verdict({ p }: { p: Push }) {
  if (!p.answer)
    return p.closed ? (
      <p className="cl-note">The trainer closed the question. The debugger finds: {p.finding?.label}.</p>
    ) : null;
  if (!p.closed)
    return (
      <p className="cl-note" role="status">
        Your answer: {p.answer.label}. Sent: the trainer sees it, and you see the finding when they close the
        question.
      </p>
    );
  return (
    <p className={p.right ? 'cl-note' : 'cl-error'} role="status">
      Your answer: {p.answer.label} —{' '}
      {p.right ? 'right: the debugger finds the same.' : `not it: the debugger finds ${p.finding?.label}.`}
    </p>
  );
}

/**
 * The question the trainer pushed to the room ("what is wrong with this one?"): the capture opens in
 * this trainee's debugger, and the answer goes to the trainer's live table. Shows nothing until a
 * capture is pushed.
 */
export function PushedQuestion() {
  const headingId = useId();
  const [live, setLive] = useState<Live<TraineePush>>({ kind: 'connecting' });
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => followEvents('/classroom/pushed/events', traineeRefusal, TraineePushSchema, setLive), []);
  const p = live.kind === 'live' ? live.data.push : null;
  useEffect(() => {
    setChoice('');
    setError(null);
  }, [p?.id]);
  if (!p) return null;
  const href = captureLinkHref(p.capture);
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    // The app's router (and an open debugger) follow history: no reload, the page's state stays.
    history.pushState(null, '', href);
    window.dispatchEvent(new PopStateEvent('popstate'));
  };
  const send = () =>
    postJson('/classroom/pushed/answer', { pushId: p.id, choice }, TraineePushSchema, 'your answer').then(
      (v) => {
        setError(null);
        setLive({ kind: 'live', data: v });
      },
      (e: unknown) => setError(errorText(e)),
    );
  return (
    <section className="cl-pushed" aria-labelledby={headingId}>
      <h2 id={headingId}>The trainer asks: what is wrong with this one?</h2>
      <p>
        <a href={href} onClick={open}>
          Open the pushed capture in the debugger
        </a>{' '}
        <span className="cl-muted">
          (signed with the teaching key <code>TEACH-0000-1111-2222-3333</code>)
        </span>
      </p>
      {p.answer || p.closed ? null : (
        <fieldset className="cl-pushed-choices">
          <legend>Its mistake</legend>
          {p.choices.map((c) => (
            <label key={c.id} className="cl-choice">
              <input
                type="radio"
                name={`pushed-${p.id}`}
                value={c.id}
                checked={choice === c.id}
                onChange={() => setChoice(c.id)}
              />
              {c.label}
            </label>
          ))}
          <button type="button" className="cl-button" disabled={choice === ''} onClick={() => void send()}>
            Send my answer
          </button>
        </fieldset>
      )}
      <Verdict p={p} />
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
