import { useState } from 'react';
import { postJson, TraineeViewSchema, type TraineeView } from './classroom-api.ts';
import { errorText } from '../../core/errors.ts';

type Exercise = TraineeView['exercises'][number];

/**
 * The hints that unlocked by themselves for the trainee's own mistakes, what unlocks them, and
 * "Skip" (the exercise counts as done, assisted, with no points).
 */
export function OwnHints({
  ex,
  onChanged,
  exam = false,
}: {
  ex: Exercise;
  onChanged: (v: TraineeView) => void;
  /** An exam is set: no Skip (the server refuses it). */
  exam?: boolean;
}) {
  const [error, setError] = useState<string | null>(null);
  const own = ex.ownHints ?? [];
  const skip = () =>
    postJson('/classroom/skip', { exerciseId: ex.id }, TraineeViewSchema, 'skipping the exercise').then(
      (v) => {
        setError(null);
        onChanged(v);
      },
      (e: unknown) => setError(errorText(e)),
    );
  return (
    <>
      {own.length > 0 ? (
        <div className="cl-hints" aria-label={`Hints for your mistakes in ${ex.title}`} role="region">
          <h3>Hints for your mistakes</h3>
          <ul>
            {own.map((h) => (
              <li key={h.mistakeId}>
                <strong>{h.label}</strong>: {h.text} <span className="cl-muted">(−{h.cost} points)</span>
              </li>
            ))}
          </ul>
        </div>
      ) : ex.autoHintAfter != null && ex.state !== 'done' ? (
        <p className="cl-note">
          After {ex.autoHintAfter} refused {ex.autoHintAfter === 1 ? 'request' : 'requests'}, a hint for your
          own mistake unlocks here (it costs points).
        </p>
      ) : null}
      {ex.assisted ? (
        <p className="cl-note">Skipped: counted as done, assisted (no points).</p>
      ) : ex.state !== 'done' && !ex.locked && !exam ? (
        <p>
          <button type="button" className="cl-button" onClick={() => void skip()}>
            Skip {ex.title} (done as assisted, no points)
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="cl-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
