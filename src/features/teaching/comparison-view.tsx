import type { Scheme } from '../../core/index.ts';
import { mistakeById, type TeachResult } from '../../diagnose/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { InlineCode } from '../../ui/index.ts';
import { MarkedText } from './marked-text.tsx';
import { SandboxAnswerView } from './sandbox-answer-view.tsx';
import type { TeachingSession, TeachingSnapshot } from './teaching-session.ts';

/** The correct and mistaken signings side by side, what the mistake breaks, and the sends to the sandbox. */
export function ComparisonView({
  s,
  teach: t,
  session,
  context,
}: {
  s: TeachingSnapshot;
  teach: TeachResult;
  session: TeachingSession;
  context: SigningContext | null;
}) {
  const { scheme, mistake, sending } = s;
  const isLocal = context?.target.kind === 'local';
  const applied = t.applied[0];
  const notApplied = t.notApplied[0];
  const m = mistake ? mistakeById(mistake) : null;
  return (
    <section className="teach-block" aria-labelledby="teach-cmp">
      <h2 id="teach-cmp">Correct and mistaken, side by side</h2>
      {m && applied ? (
        <div className="teach-explain">
          <p>
            <strong>{m.teachingSwitch}:</strong> {applied.detail}.
          </p>
          {m.rules.map((r, i) => (
            <p className="teach-rule" key={i}>
              Breaks{' '}
              <cite>
                {r.document} › <InlineCode text={r.section} />
              </cite>
              : <InlineCode text={r.quote} />
            </p>
          ))}
          <p className="teach-hint">
            <InlineCode text={m.advice} />
          </p>
        </div>
      ) : m && notApplied ? (
        <p className="teach-warn" role="note">
          “{m.teachingSwitch}” changes nothing here: <InlineCode text={notApplied.reason} />.
        </p>
      ) : (
        <p className="teach-hint">Pick a mistake above to see what it changes.</p>
      )}
      <div className="teach-cols">
        <ComparisonColumn t={t} scheme={scheme} side="ours" heading="Correct" />
        <ComparisonColumn
          t={t}
          scheme={scheme}
          side="theirs"
          heading={`With the mistake${m && applied ? `: ${m.teachingSwitch}` : ''}`}
        />
      </div>
      <p className="teach-changed" role="status" aria-label="Signature changed">
        {t.signatureChanged ? 'The signature changed.' : 'The signature is the same.'}
      </p>
      <details>
        <summary>The mistaken request as raw HTTP</summary>
        <pre className="ui-code" role="group" aria-label="Mistaken request">
          {t.mistaken.rawHttp}
        </pre>
      </details>

      <div className="teach-actions">
        <button
          type="button"
          className="ui-btn ui-btn-primary"
          disabled={!isLocal || sending || t.mistaken.signature === null}
          onClick={() => void session.send('mistaken')}
        >
          Send the mistaken request to the local sandbox
        </button>
        <button
          type="button"
          className="ui-btn"
          disabled={!isLocal || sending || t.correct.signature === null}
          onClick={() => void session.send('correct')}
        >
          Send the correct request
        </button>
      </div>
      {!isLocal && context ? (
        <p className="teach-hint">
          Sending needs the local sandbox: pick the target “local” in the profile bar.
        </p>
      ) : null}
      {sending ? <p role="status">Sending to the local sandbox…</p> : null}
      {s.sendError ? (
        <p className="teach-error" role="alert">
          {s.sendError.message}
        </p>
      ) : null}
      {s.sent && !sending ? <SandboxAnswerView sent={s.sent} /> : null}
    </section>
  );
}

/** One column of the correct-versus-mistaken comparison: the signing input and the signature, marked where they differ. */
function ComparisonColumn({
  t,
  scheme,
  side,
  heading,
}: {
  t: TeachResult;
  scheme: Scheme;
  side: 'ours' | 'theirs';
  heading: string;
}) {
  const which = side === 'ours' ? 'Correct' : 'Mistaken';
  return (
    <div className={side === 'ours' ? 'teach-col' : 'teach-col teach-col-mistaken'}>
      <h3>{heading}</h3>
      <h4>{scheme === 'control' ? 'Signing input' : 'Base string'}</h4>
      <MarkedText
        ours={t.correct.signingInput}
        theirs={t.mistaken.signingInput}
        side={side}
        label={`${which} signing input`}
      />
      <h4>Signature</h4>
      <MarkedText
        ours={t.correct.signature ?? ''}
        theirs={t.mistaken.signature ?? ''}
        side={side}
        label={`${which} signature`}
        block={false}
      />
    </div>
  );
}
