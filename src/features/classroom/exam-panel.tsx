import { useEffect, useState } from 'react';
import { ExamStateSchema, type ExamState } from '../../contracts/classroom-exam.ts';
import { errorText } from '../../core/errors.ts';
import { getJson, postJson } from './classroom-api.ts';

/** "19:30:00 UTC" of an ISO time: the room reads one clock, the server's. */
const clock = (iso: string | null) => (iso ? `${iso.slice(11, 19)} UTC` : '');

/**
 * The exam's state, read again whenever `version` changes (the live view's time) and when the time
 * box ends by itself, timed by the server's clock.
 */
export function useExam(
  url: string,
  version: unknown,
): [ExamState | null, (s: ExamState) => void, string | null] {
  const [exam, setExam] = useState<ExamState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let gone = false;
    if (version === null) return;
    getJson(url, ExamStateSchema, 'the exam').then(
      (s) => {
        if (gone) return;
        setExam(s);
        setError(null);
      },
      (e: unknown) => !gone && setError(errorText(e)),
    );
    return () => {
      gone = true;
    };
  }, [url, version]);
  const endsIn =
    exam?.state === 'running' && exam.endsAt ? Date.parse(exam.endsAt) - Date.parse(exam.now) : null;
  useEffect(() => {
    if (endsIn === null || !exam) return;
    const timer = setTimeout(() => setExam({ ...exam, state: 'over' }), Math.max(0, endsIn));
    return () => clearTimeout(timer);
  }, [endsIn, exam]);
  return [exam, setExam, error];
}

/** The trainer's exam controls: a time box, its end, the exports, reopening the room. */
export function ExamPanel({ version }: { version: unknown }) {
  const [exam, setExam, loadError] = useExam('/classroom/trainer/exam', version);
  const [minutes, setMinutes] = useState('30');
  const [error, setError] = useState<string | null>(null);
  const act = (url: string, body: unknown, what: string) =>
    postJson(url, body, ExamStateSchema, what).then(
      (s) => {
        setExam(s);
        setError(null);
      },
      (e: unknown) => setError(errorText(e)),
    );
  const shown = error ?? loadError;
  return (
    <section className="cl-exam" aria-labelledby="cl-exam-title">
      <h2 id="cl-exam-title">Exam</h2>
      {shown ? (
        <p className="cl-error" role="alert">
          {shown}
        </p>
      ) : null}
      {!exam ? null : exam.state === 'none' ? (
        <form
          className="cl-controls"
          onSubmit={(e) => {
            e.preventDefault();
            void act('/classroom/trainer/exam', { minutes: Number(minutes) }, 'starting the exam');
          }}
        >
          <label>
            Exam length (minutes){' '}
            <input
              type="number"
              min={1}
              max={600}
              required
              value={minutes}
              onChange={(e) => setMinutes(e.target.value)}
            />
          </label>{' '}
          <button type="submit" className="cl-button">
            Start the exam
          </button>
          <p className="cl-note">
            While it runs hints are off (none unlock or are revealed, no Skip); at its end the room is frozen.
          </p>
        </form>
      ) : (
        <>
          <p role="status" className={exam.state === 'over' ? 'cl-error' : 'cl-note'}>
            {exam.state === 'running'
              ? `Exam running until ${clock(exam.endsAt)} (${exam.minutes ?? ''} min): hints and Skip are off.`
              : `Exam over at ${clock(exam.endsAt)}: the room is frozen, results are final.`}
          </p>
          <p className="cl-note">
            <a href="/classroom/trainer/exam/export.csv" download>
              Export the exam’s results (CSV)
            </a>{' '}
            ·{' '}
            <a href="/classroom/trainer/exam/export.json" download>
              Export the exam’s results (JSON)
            </a>
          </p>
          {exam.state === 'running' ? (
            <button
              type="button"
              className="cl-button"
              onClick={() => void act('/classroom/trainer/exam/end', {}, 'ending the exam')}
            >
              End the exam now
            </button>
          ) : (
            <button
              type="button"
              className="cl-button"
              onClick={() => void act('/classroom/trainer/exam/reopen', {}, 'reopening the room')}
            >
              Reopen the room
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** The trainee's view of an exam: when it ends, and that the room is frozen after. */
export function ExamBanner({ exam }: { exam: ExamState | null }) {
  if (!exam || exam.state === 'none') return null;
  return (
    <p role="status" className={exam.state === 'over' ? 'cl-error' : 'cl-note'}>
      {exam.state === 'running'
        ? `Exam until ${clock(exam.endsAt)}: hints and Skip are off.`
        : `The exam ended at ${clock(exam.endsAt)}: your results are final, requests no longer count.`}
    </p>
  );
}

/** Each trainee's signed certificate (Open Badges 3.0), verified offline with paysign. */
export function CertificateLinks({ trainees }: { trainees: ReadonlyArray<{ id: string; name: string }> }) {
  if (trainees.length === 0) return null;
  return (
    <section aria-labelledby="cl-cert-title">
      <h2 id="cl-cert-title">Certificates</h2>
      <p className="cl-note">
        Signed by this classroom’s key; check one with <code>paysign certificate verify &lt;file&gt;</code>.
      </p>
      <ul className="cl-controls">
        {trainees.map((t) => (
          <li key={t.id}>
            <a href={`/classroom/trainer/certificates/${encodeURIComponent(t.id)}`} download>
              Certificate of {t.name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
