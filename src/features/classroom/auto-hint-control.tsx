import { useId, useState } from 'react';
import type { TrainerSnapshot } from './classroom-api.ts';

type Exercise = TrainerSnapshot['exercises'][number];

/** The trainer's setting of an exercise's self-unlocking hints: after how many refusals, at what cost. */
export function AutoHintControl({
  e,
  onSet,
}: {
  e: Exercise;
  onSet: (after: number | null, cost: number) => void;
}) {
  const id = useId();
  const [after, setAfter] = useState(String(e.autoHints?.after ?? 3));
  const [cost, setCost] = useState(String(e.autoHints?.cost ?? 2));
  const n = Number(after);
  const c = Number(cost);
  const valid = Number.isInteger(n) && n >= 1 && n <= 50 && Number.isInteger(c) && c >= 0 && c <= 100;
  return (
    <span className="cl-autohint">
      <label htmlFor={`${id}-after`}>Own hint after (refusals) for {e.title}</label>
      <input
        id={`${id}-after`}
        type="number"
        min={1}
        max={50}
        value={after}
        onChange={(ev) => setAfter(ev.target.value)}
      />
      <label htmlFor={`${id}-cost`}>cost (points)</label>
      <input
        id={`${id}-cost`}
        type="number"
        min={0}
        max={100}
        value={cost}
        onChange={(ev) => setCost(ev.target.value)}
      />
      <button type="button" className="cl-button" disabled={!valid} onClick={() => onSet(n, c)}>
        {e.autoHints ? 'Update' : 'Turn on'}
      </button>
      {e.autoHints ? (
        <button type="button" className="cl-button" onClick={() => onSet(null, c)}>
          Turn off
        </button>
      ) : null}
      <span className="cl-muted">
        {e.autoHints ? `on: after ${e.autoHints.after}, −${e.autoHints.cost} points` : 'off'}
      </span>
    </span>
  );
}
