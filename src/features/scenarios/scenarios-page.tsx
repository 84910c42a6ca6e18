import { errorText } from '../../core/errors.ts';
import { useCallback, useEffect, useState } from 'react';
import {
  advanceClock,
  checkHandler,
  clockState,
  labState,
  type CheckReport,
  type PendingCallback,
  type RecurringSchedule,
} from '../../browser/sandbox-lab.ts';
import { InlineCode } from '../../ui/inline-code.tsx';
import { RelayDeliveries } from '../../ui/relay-deliveries.tsx';
import { aheadText } from './clock-text.ts';
import { PendingCallbacks } from './pending-callbacks.tsx';
import { ScenarioPicker } from './scenario-picker.tsx';

const STEPS: ReadonlyArray<{ label: string; ms: number }> = [
  { label: '+1 s', ms: 1000 },
  { label: '+1 min', ms: 60_000 },
  { label: '+1 h', ms: 3_600_000 },
  { label: '+14 days', ms: 14 * 86_400_000 },
  { label: '+31 days', ms: 31 * 86_400_000 },
];

/** A time in the merchant's clock, to the minute, in UTC (the schedules' calendar). */
const utcMinute = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The merchant's recurring schedules: the next charge and the charges made, the latest one's status. */
function RecurringSchedules({ schedules }: { schedules: readonly RecurringSchedule[] }) {
  if (schedules.length === 0) return null;
  return (
    <div className="ui-scroll-x" role="group" aria-label="Recurring schedules, scrolls sideways" tabIndex={0}>
      <table className="wb-table" aria-label="Recurring schedules">
        <thead>
          <tr>
            <th scope="col">Recurring payment</th>
            <th scope="col">Amount</th>
            <th scope="col">Every</th>
            <th scope="col">Next charge</th>
            <th scope="col">Charges made</th>
            <th scope="col">Latest charge</th>
          </tr>
        </thead>
        <tbody>
          {schedules.map((s) => {
            const latest = s.charges[0];
            return (
              <tr key={s.recurringPaymentId}>
                <td>{s.recurringPaymentId}</td>
                <td>
                  {s.amount} {s.currency}
                </td>
                <td>
                  {s.interval} {s.period}
                  {s.interval === 1 ? '' : 's'}
                </td>
                <td>{s.nextChargeAt === null ? s.status : utcMinute(s.nextChargeAt)}</td>
                <td>{s.chargesMade}</td>
                <td>{latest ? `${latest.orderId} (${latest.clientOrderId}): ${latest.status}` : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function TestClock({ login }: { login: string }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [schedules, setSchedules] = useState<readonly RecurringSchedule[]>([]);
  const [pending, setPending] = useState<{ callbacks: readonly PendingCallback[]; schedule?: string }>({
    callbacks: [],
  });
  const refresh = useCallback(
    () =>
      clockState(login).then(
        (s) => {
          setSchedules(s.recurring);
          setPending({
            callbacks: s.callbacks ?? [],
            ...(s.retrySchedule ? { schedule: s.retrySchedule } : {}),
          });
        },
        () => setSchedules([]),
      ),
    [login],
  );
  useEffect(() => {
    void refresh();
    // The callbacks waiting change as the sandbox delivers them: read again while shown.
    const timer = setInterval(() => void refresh(), 2000);
    return () => clearInterval(timer);
  }, [refresh]);
  const advance = (ms: number, label: string) => {
    setBusy(true);
    advanceClock(login, ms)
      .then(
        (r) =>
          setNote(`Advanced ${label}: ${r.steps} step(s); ${aheadText(r.totalAdvancedMs)} ahead in all.`),
        (e: unknown) => setNote(errorText(e)),
      )
      .finally(() => {
        setBusy(false);
        void refresh();
      });
  };
  return (
    <section aria-labelledby="sc-clock">
      <h2 id="sc-clock">Test clock</h2>
      <p className="wb-hint">
        Moves {login}’s finalisations, callback retries, held callbacks and recurring charges forward, waiting
        for each delivery.
      </p>
      {STEPS.map((s) => (
        <button
          key={s.ms}
          type="button"
          className="ui-btn"
          disabled={busy}
          onClick={() => advance(s.ms, s.label)}
        >
          Advance {s.label}
        </button>
      ))}
      <p role="status">{note}</p>
      <RecurringSchedules schedules={schedules} />
      <PendingCallbacks callbacks={pending.callbacks} schedule={pending.schedule} />
    </section>
  );
}

function HandlerCheck({ login }: { login: string }) {
  const [url, setUrl] = useState('');
  const [stateUrl, setStateUrl] = useState('');
  const [report, setReport] = useState<CheckReport | undefined>(undefined);
  const [note, setNote] = useState('');
  const run = () => {
    setNote('Checking…');
    setReport(undefined);
    checkHandler({ url, login, ...(stateUrl ? { stateUrl } : {}) }).then(
      (r) => {
        setReport(r);
        setNote(r.passed ? 'All checks passed.' : 'Some checks failed.');
      },
      (e: unknown) => setNote(errorText(e)),
    );
  };
  return (
    <section aria-labelledby="sc-check">
      <h2 id="sc-check">Handler check</h2>
      <p className="wb-hint">
        The same checks as <code>paysign handler-check</code>, run by the sandbox (this machine, or the hosts
        in <code>SANDBOX_CALLBACK_HOSTS</code>) with {login}’s control key.
      </p>
      <label>
        Handler URL{' '}
        <input
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="http://127.0.0.1:8080/callback"
        />
      </label>{' '}
      <label>
        State URL (optional){' '}
        <input
          value={stateUrl}
          onChange={(e) => setStateUrl(e.target.value)}
          placeholder="http://127.0.0.1:8080/orders/{orderid}"
        />
      </label>{' '}
      <button type="button" className="ui-btn" onClick={run} disabled={url === ''}>
        Run the checks
      </button>
      <p role="status">{note}</p>
      {report ? (
        <div className="ui-scroll-x" role="group" aria-label="Handler checks, scrolls sideways" tabIndex={0}>
          <table className="wb-table" aria-label="Handler checks">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Outcome</th>
                <th scope="col">Detail</th>
                <th scope="col">Rule</th>
              </tr>
            </thead>
            <tbody>
              {report.results.map((r) => (
                <tr key={r.id}>
                  <td>{r.id}</td>
                  <td
                    className={
                      r.outcome === 'passed' ? 'wb-good' : r.outcome === 'failed' ? 'wb-bad' : undefined
                    }
                  >
                    {r.outcome}
                  </td>
                  <td>{r.detail}</td>
                  <td>
                    <InlineCode text={r.rule.quote} /> <cite>({r.rule.source})</cite>
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

/** The scenario lab: choose faults, drive the test clock, watch and replay callbacks, check a handler. */
export function ScenariosPage({ activeLogin }: { activeLogin: string | undefined }) {
  const [login, setLogin] = useState<string | undefined>(activeLogin);
  const [error, setError] = useState('');
  useEffect(() => {
    if (activeLogin) return;
    labState().then(
      (s) => setLogin(s.merchants[0]?.login),
      (e: unknown) => setError(errorText(e)),
    );
  }, [activeLogin]);
  return (
    <div className="sc-page">
      <h1 id="sc-title">Scenario lab</h1>
      <p>
        The faults a real gateway produces, on the local sandbox: choose them for a merchant, then send
        requests from the workbench or from your own integration. See <code>docs/scenarios.md</code>.
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {login ? (
        <>
          <ScenarioPicker login={login} />
          <TestClock login={login} />
          <section aria-labelledby="sc-relay">
            <h2 id="sc-relay">Callbacks sent to the handler</h2>
            <RelayDeliveries login={login} />
          </section>
          <HandlerCheck login={login} />
        </>
      ) : null}
    </div>
  );
}
