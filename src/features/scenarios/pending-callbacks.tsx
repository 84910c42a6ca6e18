import type { PendingCallback } from '../../browser/sandbox-lab.ts';

/** A time in the merchant's clock, to the second, in UTC (the fast schedule retries within seconds). */
const utcSecond = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * The callbacks the sandbox has yet to deliver for the merchant, each with its next attempt in the
 * merchant's time (the test clock's advance included): the retry schedule made visible.
 */
export function PendingCallbacks({
  callbacks,
  schedule,
}: {
  callbacks: readonly PendingCallback[];
  schedule: string | undefined;
}) {
  return (
    <>
      <h3 id="sc-pending">Callbacks waiting</h3>
      <p className="wb-hint">
        {schedule === 'fast'
          ? 'Retry schedule: fast (local), waits doubling from the first.'
          : 'Retry schedule: the gateway’s, 30 attempts over 14 days (docs/scenarios.md).'}
      </p>
      {callbacks.length === 0 ? (
        <p className="wb-empty">No callback waiting.</p>
      ) : (
        <div
          className="ui-scroll-x"
          role="group"
          aria-label="Callbacks waiting, scrolls sideways"
          tabIndex={0}
        >
          <table className="wb-table" aria-labelledby="sc-pending">
            <thead>
              <tr>
                <th scope="col">orderid</th>
                <th scope="col">type</th>
                <th scope="col">status</th>
                <th scope="col">Goes to</th>
                <th scope="col">Attempts made</th>
                <th scope="col">Next attempt (merchant’s time)</th>
              </tr>
            </thead>
            <tbody>
              {callbacks.map((c) => (
                <tr key={c.callbackId}>
                  <td>{c.orderId}</td>
                  <td>{c.type}</td>
                  <td>{c.status}</td>
                  <td>
                    <code>{c.urlField}</code>
                  </td>
                  <td>{c.attempts}</td>
                  <td>{utcSecond(c.nextAttemptAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
