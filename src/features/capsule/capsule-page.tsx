import { useEffect, useState, type DragEvent } from 'react';
import type { SigningRuntime } from '../../model/index.ts';
import type { Capsule } from '../../diagnose/capsule/index.ts';
// Loaded on the first Replay only.
const sandboxReplay = () => import('../../browser/sandbox-replay.ts');
import { CapsuleSession } from './capsule-session.ts';
import { ReplayResults } from './capsule-replay.tsx';
import './capsule.css';
import { useStore } from '../../ui/use-store.ts';
import { InlineCode } from '../../ui/inline-code.tsx';

function Timeline({ capsule }: { capsule: Capsule }) {
  return (
    <>
      {capsule.orders.map((o) => (
        <table key={o.clientOrderId + o.steps.join()} className="cap-table">
          <caption>
            Order {o.clientOrderId || '(no client_orderid)'}
            {o.orderIds.length > 0 ? ` · orderid ${o.orderIds.join(', ')}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">What</th>
              <th scope="col">Operation</th>
              <th scope="col">Signature</th>
              <th scope="col">Likely cause</th>
            </tr>
          </thead>
          <tbody>
            {o.steps.map((i) => {
              const s = capsule.steps[i]!;
              return (
                <tr key={i}>
                  <td>{i + 1}</td>
                  <td>{s.time === null ? '—' : new Date(s.time).toISOString()}</td>
                  <td>
                    {s.kind}
                    {s.answerStatus !== null ? ` (answered ${s.answerStatus})` : ''}
                  </td>
                  <td>
                    <code>{s.operation}</code>
                  </td>
                  <td>{s.verdict}</td>
                  <td>
                    {s.causes[0] ? (
                      <>
                        <InlineCode text={s.causes[0].title} /> [{s.causes[0].confidence}]
                      </>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
      {capsule.findings.length > 0 ? (
        <ul className="cap-findings" aria-label="State rules">
          {capsule.findings.map((f, i) => (
            <li key={i}>
              Step {f.step + 1}: {f.message}
            </li>
          ))}
        </ul>
      ) : (
        <p>No state rule is broken.</p>
      )}
    </>
  );
}

/** The incident capsule: a merchant's whole incident pasted, checked as one timeline, handed on as a file. */
export function CapsulePage({ runtime }: { runtime: SigningRuntime }) {
  const [session] = useState(
    () =>
      new CapsuleSession(runtime.crypto, {
        runtime,
        origin: window.location.origin,
        makeMerchant: async () => (await sandboxReplay()).makeReplayMerchant(runtime.crypto),
        send: async (built) => (await sandboxReplay()).sendToSandbox(built),
        wait: (ms) => new Promise((done) => setTimeout(done, ms)),
      }),
  );
  const snap = useStore(session);
  const { capsule, link } = snap;
  useEffect(() => {
    const read = () => void session.openLink(window.location.hash);
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [session]);
  const openFile = (file: File | undefined) => {
    if (file) void file.text().then((t) => session.open(t));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    openFile(e.dataTransfer.files[0]);
  };
  const download = () => {
    const text = session.exportText();
    if (text === null) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    a.download = 'incident.capsule.json';
    a.click();
    URL.revokeObjectURL(a.href);
  };
  return (
    <section
      className="cap"
      aria-labelledby="cap-title"
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <h1 id="cap-title">Incident capsule</h1>
      <p>
        Paste everything a merchant sent about an incident at once: log lines of any kind, a HAR file, curl
        commands, access-log lines of callbacks, customer returns. The page groups it by order into a
        timeline, checks every signature with the key you give (kept in this page, never in the capsule) and
        the order-state rules, and exports a capsule: card numbers masked, no key, each step hash-chained.
        Drop a capsule file here, open it below or follow a capsule link, to read one read-only. Replay sends
        its requests, re-signed, to a fresh merchant of the local sandbox and shows where the answers differ.
      </p>
      {snap.readOnly ? null : (
        <form
          className="cap-form"
          aria-label="Incident"
          onSubmit={(e) => {
            e.preventDefault();
            void session.build();
          }}
        >
          <label htmlFor="cap-text">Incident (logs, HAR, curl, access log)</label>
          <textarea
            id="cap-text"
            rows={10}
            value={snap.text}
            onChange={(e) => session.set('text', e.target.value)}
          />
          <label htmlFor="cap-key">Merchant control key</label>
          <input
            id="cap-key"
            type="password"
            autoComplete="off"
            value={snap.controlKey}
            onChange={(e) => session.set('controlKey', e.target.value)}
          />
          <button type="submit" className="ui-btn ui-btn-primary" disabled={snap.busy}>
            {snap.busy ? 'Building…' : 'Build the timeline'}
          </button>
        </form>
      )}
      <div className="cap-open">
        <label htmlFor="cap-file">Open a capsule (read-only)</label>
        <input
          id="cap-file"
          type="file"
          accept=".json,application/json"
          onChange={(e) => openFile(e.target.files?.[0])}
        />
      </div>
      {snap.error ? <p role="alert">{snap.error}</p> : null}
      {capsule ? (
        <section aria-label="Timeline" className="cap-out">
          <p role="status" aria-label="Capsule status">
            {snap.readOnly
              ? snap.check?.ok
                ? `Opened read-only · chain intact · ${capsule.steps.length} steps`
                : `Opened read-only · chain BROKEN: ${snap.check?.problems.join('; ') ?? ''}`
              : `${capsule.steps.length} steps in ${capsule.orders.length} order(s), ${capsule.findings.length} state rule(s) broken`}
          </p>
          <div className="cap-actions">
            {snap.readOnly ? null : (
              <button type="button" className="ui-btn" onClick={download}>
                Export the capsule
              </button>
            )}
            <button
              type="button"
              className="ui-btn"
              disabled={snap.replay?.running === true}
              onClick={() => void session.replay()}
            >
              Replay in a fresh sandbox merchant
            </button>
            {snap.readOnly ? null : (
              <button type="button" className="ui-btn" onClick={() => void session.makeLink()}>
                Make a link
              </button>
            )}
          </div>
          {link && 'error' in link ? <p role="alert">{link.error}</p> : null}
          {link && 'href' in link ? (
            <div className="cap-open">
              <label htmlFor="cap-link">
                Capsule link (the capsule is in the part after #, never sent to a server)
              </label>
              <input id="cap-link" readOnly value={`${window.location.origin}${link.href}`} />
            </div>
          ) : null}
          {snap.replay ? <ReplayResults replay={snap.replay} /> : null}
          <Timeline capsule={capsule} />
        </section>
      ) : null}
    </section>
  );
}
