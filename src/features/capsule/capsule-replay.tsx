import type { ReplayStepResult } from '../../exports/replay-capsule.ts';
import type { ReplayState } from './capsule-session.ts';

const OUTCOME: Record<ReplayStepResult['outcome'], string> = {
  same: 'same',
  differs: 'differs',
  'no-record': 'no recorded answer',
  'not-sent': 'not sent',
};

/** The replay's progress and, step by step, where the sandbox's answer differs from the logs'. */
export function ReplayResults({ replay }: { replay: ReplayState }) {
  return (
    <section aria-label="Replay" className="cap-replay">
      <p role="status" aria-label="Replay status">
        {replay.error
          ? `Replay stopped: ${replay.error}`
          : replay.running
            ? `Replaying${replay.login ? ` into ${replay.login}` : ''}… ${replay.done} of ${replay.total}`
            : `Replayed into sandbox merchant ${replay.login ?? ''}: ${
                replay.divergent ? 'the sandbox answered differently' : 'no answer differs'
              }`}
      </p>
      <progress aria-label="Replay progress" max={replay.total} value={replay.done} />
      {replay.steps.length > 0 ? (
        <table className="cap-table" aria-label="Replay, step by step">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Operation</th>
              <th scope="col">Outcome</th>
              <th scope="col">Sandbox answered</th>
              <th scope="col">Where it differs</th>
            </tr>
          </thead>
          <tbody>
            {replay.steps.map((s) => (
              <tr key={s.index}>
                <td>{s.index + 1}</td>
                <td>
                  <code>{s.operation}</code>
                </td>
                <td>{OUTCOME[s.outcome]}</td>
                <td>{s.sandboxStatus ?? '—'}</td>
                <td>
                  {s.differences.map((d) => (
                    <div key={d.field}>
                      <code>{d.field}</code>: logs “{d.captured}”, sandbox “{d.sandbox}”
                    </div>
                  ))}
                  {s.sandboxMessage ? <div>The sandbox said: {s.sandboxMessage}</div> : null}
                  {s.notes.map((n) => (
                    <div key={n} className="cap-note">
                      {n}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
