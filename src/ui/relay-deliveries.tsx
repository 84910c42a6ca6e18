import { errorText } from '../core/errors.ts';
import { useCallback, useEffect, useState } from 'react';
import {
  clockState,
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

function queryOf(url: string, name: string): string {
  try {
    return new URL(url).searchParams.get(name) ?? '';
  } catch {
    return '';
  }
}

function targetOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** A time of the merchant's clock (the sandbox's plus what its test clock was advanced by). */
function merchantTime(at: number, advancedMs: number): string {
  return new Date(at + advancedMs).toLocaleTimeString();
}

/**
 * The local sandbox's relay record: each callback sent (to the merchant's own handler or to the
 * console's inbox) and the handler's answer, newest first, with its attempt and the next retry in
 * the merchant's time, and a one-click replay (as it was, or mutated). Polls while shown. With
 * `orderId`, only that order's deliveries.
 */
export function RelayDeliveries({
  login,
  orderId,
}: {
  login: string | undefined;
  orderId?: string | undefined;
}) {
  const [rows, setRows] = useState<Delivery[] | undefined>(undefined);
  const [advancedMs, setAdvancedMs] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [mutation, setMutation] = useState<ReplayMutation>('as-is');
  const [note, setNote] = useState('');
  const refresh = useCallback(() => {
    listDeliveries(login, orderId).then(
      (d) => {
        setRows(d);
        setError(undefined);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [login, orderId]);
  const pending = rows?.some((d) => d.nextAttemptAt !== null) ?? false;
  useEffect(() => {
    // The merchant's time of a pending retry: the sandbox's clock plus its test clock's advance.
    if (!login || !pending) return;
    clockState(login).then(
      (c) => setAdvancedMs(c.clockAdvancedMs),
      () => undefined,
    );
  }, [login, pending]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 1500);
    return () => clearInterval(timer);
  }, [refresh]);
  const replay = (d: Delivery, how: ReplayMutation) => {
    setNote('');
    replayDelivery(d.id, how).then(
      (r) => {
        setNote(`Replayed delivery ${d.id} (${how}): ${r.result}.`);
        refresh();
      },
      (e: unknown) => setNote(errorText(e)),
    );
  };
  return (
    <section className="relay" aria-labelledby={orderId ? 'relay-title-order' : 'relay-title'}>
      <h3 id={orderId ? 'relay-title-order' : 'relay-title'}>
        {orderId ? `Deliveries of order ${orderId}` : 'Relay deliveries'}
      </h3>
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
        <div className="ui-scroll-x" role="group" aria-label="Deliveries, scrolls sideways" tabIndex={0}>
          <table
            className="wb-table"
            aria-label={orderId ? `Deliveries of order ${orderId}` : 'Relay deliveries'}
          >
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">orderid</th>
                <th scope="col">Sent</th>
                <th scope="col">type</th>
                <th scope="col">status</th>
                <th scope="col">Sent to</th>
                <th scope="col">Handler&apos;s answer</th>
                <th scope="col">Took</th>
                <th scope="col">Attempt</th>
                <th scope="col">Next retry (merchant&apos;s time)</th>
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
                  <td>{queryOf(d.url, 'type')}</td>
                  <td>{queryOf(d.url, 'status')}</td>
                  <td className="relay-url">
                    {targetOf(d.url)}
                    {d.urlField ? (
                      <>
                        {' '}
                        (<code>{d.urlField}</code>
                        {d.urlWhy ? <span className="wb-hint">: {d.urlWhy}</span> : null})
                      </>
                    ) : null}
                  </td>
                  <td title={d.bodyExcerpt ?? undefined}>
                    {d.result}
                    {d.bodyExcerpt ? ` · ${d.bodyExcerpt.slice(0, 40)}` : ''}
                  </td>
                  <td>{d.durationMs === null ? '' : `${Math.round(d.durationMs)} ms`}</td>
                  <td>{d.attempt ?? ''}</td>
                  <td>{d.nextAttemptAt === null ? '' : merchantTime(d.nextAttemptAt, advancedMs)}</td>
                  <td>
                    {d.kind === 'held' || d.kind === 'refused' ? null : (
                      <span className="relay-actions">
                        <button
                          type="button"
                          className="ui-btn ui-btn-small"
                          onClick={() => replay(d, mutation)}
                        >
                          Replay {d.id}
                        </button>
                        {orderId
                          ? REPLAY_MUTATIONS.filter((m) => m !== 'as-is').map((m) => (
                              <button
                                key={m}
                                type="button"
                                className="ui-btn ui-btn-small"
                                aria-label={`Replay ${d.id} as ${m}`}
                                onClick={() => replay(d, m)}
                              >
                                {m}
                              </button>
                            ))
                          : null}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
