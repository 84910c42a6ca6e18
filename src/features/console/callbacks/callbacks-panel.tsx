import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { verifyCallback, type CallbackVerdict, type CryptoPort } from '../../../core/index.ts';
import { consoleMode } from '../../../browser/console-mode.ts';
import {
  callbacksSnapshot,
  callbackUrl,
  clearCallbacks,
  subscribeCallbacks,
  type CallbackEvent,
} from './callbacks-store.ts';

// The sandbox relay's record of what it sent the handler loads with the panel's first callback.
const RelayDeliveries = lazy(() =>
  import('../../../ui/relay-deliveries.tsx').then((m) => ({ default: m.RelayDeliveries })),
);

type Check = CallbackVerdict;

function useControlChecks(
  events: CallbackEvent[],
  controlKey: string | undefined,
  cryptoPort: CryptoPort,
): Map<number, Check> {
  const [checks, setChecks] = useState<Map<number, Check>>(new Map());
  useEffect(() => {
    let live = true;
    void Promise.all(
      events.map(async (e): Promise<[number, Check]> => [
        e.id,
        await verifyCallback(e.query, controlKey, cryptoPort),
      ]),
    ).then((pairs) => {
      if (live) setChecks(new Map(pairs));
    });
    return () => {
      live = false;
    };
  }, [events, controlKey, cryptoPort]);
  return checks;
}

const CHECK_TEXT: Record<Check, string> = {
  valid: '✓ control valid',
  invalid: '✗ control does not match',
  'no-control': 'no control field',
  'no-key': 'enter the control key to check',
};

/** The order id of the answer on screen (v4 answers it as a number). */
function orderIdOf(answer: unknown): string | undefined {
  const id =
    answer && typeof answer === 'object' ? (answer as Record<string, unknown>)['paynet-order-id'] : undefined;
  return typeof id === 'string' && /^\d+$/.test(id) ? id : typeof id === 'number' ? String(id) : undefined;
}

export function CallbacksPanel({
  controlKey,
  crypto,
  login,
  answer,
}: {
  controlKey: string | undefined;
  crypto: CryptoPort;
  login?: string | undefined;
  /** The body of the answer on screen: its order's deliveries are listed wherever they went. */
  answer?: unknown;
}) {
  const orderId = orderIdOf(answer);
  const snap = useSyncExternalStore(subscribeCallbacks, callbacksSnapshot);
  const checks = useControlChecks(snap.events, controlKey, crypto);
  return (
    <section className="wb-pane wb-callbacks" aria-labelledby="cb-title">
      <div className="wb-pane-head">
        <h2 id="cb-title">Callbacks this session</h2>
        <span
          className={`wb-dot wb-dot-${snap.state}`}
          role="img"
          aria-label={`Callback stream ${snap.state}`}
        />
        {snap.events.length > 0 ? (
          <button type="button" className="ui-btn ui-btn-small" onClick={clearCallbacks}>
            Clear list
          </button>
        ) : null}
      </div>
      <p className="wb-hint">
        Inbox: <code>{callbackUrl()}</code> (the test data puts it in <code>server_callback_url</code>).
      </p>
      {snap.events.length === 0 ? (
        <p className="wb-empty">
          No callback in this session&apos;s inbox yet
          {orderId ? `; the deliveries of order ${orderId}, wherever they went, are below` : ''}.
        </p>
      ) : (
        <table className="wb-table" aria-label="Callbacks received">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">status</th>
              <th scope="col">orderid</th>
              <th scope="col">client_orderid</th>
              <th scope="col">control</th>
            </tr>
          </thead>
          <tbody>
            {snap.events.map((e) => {
              const c = checks.get(e.id);
              return (
                <tr key={e.id}>
                  <td>{new Date(e.receivedAt).toLocaleTimeString()}</td>
                  <td>{e.query.status ?? ''}</td>
                  <td>{e.query.orderid ?? ''}</td>
                  <td>{e.query.client_orderid ?? e.query.merchant_order ?? ''}</td>
                  <td className={c === 'valid' ? 'wb-good' : c === 'invalid' ? 'wb-bad' : undefined}>
                    {c ? CHECK_TEXT[c] : '…'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {/* The relay's record is the sandbox admin's: a classroom closes it to trainees (403). */}
      {(orderId !== undefined || snap.events.length > 0) && consoleMode() !== 'classroom' ? (
        <Suspense fallback={null}>
          <RelayDeliveries login={login} orderId={orderId} />
        </Suspense>
      ) : null}
    </section>
  );
}
