import { errorText } from '../core/errors.ts';
import { useCallback, useEffect, useState } from 'react';
import {
  listDeliveries,
  replayDelivery,
  REPLAY_MUTATIONS,
  type Delivery,
  type ReplayMutation,
} from '../browser/sandbox-lab.ts';

const KIND_TEXT: Record<string, string> = {
  delivery: 'delivered',
  duplicate: 'duplicate',
  forged: 'forged (wrong control)',
  dropped: 'dropped',
  held: 'held back',
  refused: 'host refused',
  replay: 'replay',
};

function statusOf(url: string): string {
  try {
    return new URL(url).searchParams.get('status') ?? '';
  } catch {
    return '';
  }
}

/**
 * The local sandbox's relay record: each callback sent to the merchant's handler and its answer,
 * newest first, with a replay (as it was or mutated). Polls while shown.
 */
export function RelayDeliveries({ login }: { login: string | undefined }) {
  const [rows, setRows] = useState<Delivery[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [mutation, setMutation] = useState<ReplayMutation>('as-is');
  const [note, setNote] = useState('');
  const refresh = useCallback(() => {
    listDeliveries(login).then(
      (d) => {
        setRows(d);
        setError(undefined);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [login]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 1500);
    return () => clearInterval(timer);
  }, [refresh]);
  const replay = (d: Delivery) => {
    setNote('');
    replayDelivery(d.id, mutation).then(
      (r) => {
        setNote(`Replayed delivery ${d.id} (${mutation}): ${r.result}.`);
        refresh();
      },
      (e: unknown) => setNote(errorText(e)),
    );
  };
  return (
    <section className="relay" aria-labelledby="relay-title">
      <h3 id="relay-title">Relay deliveries</h3>
      {error ? <p className="wb-hint">{error}</p> : null}
      <label>
        Replay as{' '}
        <select value={mutation} onChange={(e) => setMutation(e.target.value as ReplayMutation)}>
          {REPLAY_MUTATIONS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <p role="status">{note}</p>
      {rows && rows.length === 0 ? <p className="wb-empty">No delivery yet.</p> : null}
      {rows && rows.length > 0 ? (
        <table className="wb-table" aria-label="Relay deliveries">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">orderid</th>
              <th scope="col">Sent</th>
              <th scope="col">status</th>
              <th scope="col">Handler's answer</th>
              <th scope="col">Took</th>
              <th scope="col">
                <span className="ui-visually-hidden">Replay</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>{new Date(d.at).toLocaleTimeString()}</td>
                <td>{d.orderId}</td>
                <td>{d.mutation ? `replay (${d.mutation})` : (KIND_TEXT[d.kind] ?? d.kind)}</td>
                <td>{statusOf(d.url)}</td>
                <td title={d.bodyExcerpt ?? undefined}>
                  {d.result}
                  {d.bodyExcerpt ? ` · ${d.bodyExcerpt.slice(0, 40)}` : ''}
                </td>
                <td>{d.durationMs === null ? '' : `${d.durationMs} ms`}</td>
                <td>
                  {d.kind === 'held' || d.kind === 'refused' ? null : (
                    <button type="button" className="ui-btn ui-btn-small" onClick={() => replay(d)}>
                      Replay {d.id}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
