import { renderRawHttp } from '../../core/index.ts';
import { MarkedText } from './marked-text.tsx';
import type { TeachingSent } from './teaching-session.ts';

/** What the local sandbox answered to a request sent from the page, beside the signing input it built. */
export function SandboxAnswerView({ sent }: { sent: TeachingSent }) {
  const a = sent.answer;
  const label = `HTTP ${a.httpStatus}${a.errorCode ? ` ${a.errorCode}` : ''}`;
  const dbg = a.sandboxSigningInput;
  return (
    <section className="teach-answer" aria-label="Sandbox answer">
      <h3>
        The local sandbox’s answer to the {sent.which === 'mistaken' ? 'mistaken' : 'correct'} request
        {sent.mistakeTitle ? ` (${sent.mistakeTitle})` : ''}
      </h3>
      <p
        className={`teach-status ${a.accepted ? 'teach-status-ok' : 'teach-status-bad'}`}
        role="status"
        aria-label={`Sandbox answer: ${label}`}
      >
        {label} · {a.accepted ? 'accepted' : a.signatureRefused ? 'signature refused' : 'refused'}
      </p>
      {a.errorMessage ? <p aria-label="Sandbox error message">{a.errorMessage}</p> : null}
      {a.accepted && sent.mistakeId === 'uppercase-hex' ? (
        <p className="teach-warn" role="note">
          The local sandbox accepted it: it takes <code>control</code> in either hex case. The gateway
          publishes lowercase hex, so a stricter gateway may refuse it.
        </p>
      ) : a.accepted && sent.mistakeId ? (
        <p className="teach-warn" role="note">
          Accepted: the mistake changed nothing the sandbox checks in this request.
        </p>
      ) : null}
      {sent.newOrderId ? (
        <p className="teach-hint">A new order id was drawn: the sandbox refuses one it has seen before.</p>
      ) : null}
      {dbg ? (
        <>
          <h4>
            The sandbox’s own {dbg.kind === 'control' ? 'signing input' : 'base string'}, against the one
            signed
          </h4>
          <MarkedText
            ours={sent.signingInput}
            theirs={dbg.text}
            side="theirs"
            label="Sandbox signing input"
          />
          <p className="teach-hint">
            {dbg.text === sent.correctSigningInput
              ? 'It is the correct signing input: the sandbox signs what the description says. Marked: what the mistaken signer did not sign.'
              : 'Marked: what the sandbox signed that the request did not.'}
            {dbg.signingKey ? ` The sandbox verifies with ${dbg.signingKey}.` : ''}
          </p>
        </>
      ) : null}
      <details>
        <summary>The request as sent and the raw answer</summary>
        <pre className="ui-code" role="group" aria-label="Request sent">
          {renderRawHttp(sent.request)}
        </pre>
        <pre className="ui-code" role="group" aria-label="Raw answer">
          {a.body}
        </pre>
      </details>
    </section>
  );
}
