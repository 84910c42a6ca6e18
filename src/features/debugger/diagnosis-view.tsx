import { percentDecode } from '../../core/index.ts';
import {
  captureNotes,
  diffText,
  ruleById,
  type Diagnosis,
  type FirstDifference,
  type LikelyCause,
  type RuleReference,
} from '../../diagnose/index.ts';
import { CAPTURE_FORMAT_LABEL, type CaptureFormat, type ParsedCapture } from '../../capture/index.ts';
import { AlsoReadsAs, CaptureTarget } from './also-reads-as.tsx';
import { InlineCode } from '../../ui/index.ts';
import { Legend, Segments } from './segments.tsx';

export const VERDICT_LABEL: Record<Diagnosis['verdict'], string> = {
  ok: 'OK',
  mismatch: 'MISMATCH',
  'cannot-check': 'Cannot check without the secret',
};

const MASKED_LABEL = 'Cannot check: masked values';

function Rule({ rule }: { rule: RuleReference }) {
  return (
    <blockquote className="dbg-rule">
      <p>
        <InlineCode text={rule.quote} />
      </p>
      <footer>
        <cite>
          {rule.document} › <InlineCode text={rule.section} />
        </cite>
      </footer>
    </blockquote>
  );
}

function Cause({ cause, rank }: { cause: LikelyCause; rank: number }) {
  const id = `dbg-cause-${rank}`;
  return (
    <li>
      <article className={`dbg-cause dbg-cause-${cause.confidence}`} aria-labelledby={id}>
        <h3 id={id}>
          <InlineCode text={cause.title} /> <code className="dbg-id">{cause.mistakeId}</code>{' '}
          <span className={`dbg-badge dbg-badge-${cause.confidence}`}>{cause.confidence}</span>
        </h3>
        <p>
          <strong>Evidence:</strong> <InlineCode text={cause.evidence} />
        </p>
        {cause.together ? (
          <p>
            Together with <code>{cause.together}</code>.
          </p>
        ) : null}
        <div>
          <strong>The rule it breaks:</strong>
          {cause.rules.map((r, i) => (
            <Rule key={i} rule={r} />
          ))}
        </div>
        <p>
          <strong>What to do:</strong> <InlineCode text={cause.advice} />
        </p>
        {cause.mistakenSigningInput ? (
          <details>
            <summary>The mistaken signer’s signing input</summary>
            <pre
              className="ui-code"
              role="group"
              aria-label={`Mistaken signing input: ${cause.title.replaceAll('`', '')}`}
            >
              {cause.mistakenSigningInput}
            </pre>
          </details>
        ) : null}
      </article>
    </li>
  );
}

function pairsOf(baseString: string): { method: string; url: string; pairs: string[] } {
  const [method = '', url = '', ...rest] = baseString.split('&');
  const params = percentDecode(rest.join('&'), false);
  return { method, url: percentDecode(url, false), pairs: params === '' ? [] : params.split('&') };
}

function ControlDifference({ d, fd }: { d: Diagnosis; fd: FirstDifference }) {
  const terms = d.expected.control?.terms ?? [];
  return (
    <table className="dbg-table" aria-label="Term by term">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Term</th>
          <th scope="col">The description signs</th>
          <th scope="col">{fd.against === 'pasted-expected' ? 'The gateway’s text' : 'The signer used'}</th>
        </tr>
      </thead>
      <tbody>
        {terms.map((t, i) => {
          const bad = fd.location === 'term' && fd.index === i;
          return (
            <tr key={i} className={bad ? 'dbg-row-bad' : undefined} aria-invalid={bad || undefined}>
              <td>{i + 1}</td>
              <td>
                <code>{t.label}</code>
              </td>
              <td>
                <code>{t.value === '' ? '""' : t.value}</code>
              </td>
              <td>{bad ? <code>{fd.actual === '' ? '""' : fd.actual}</code> : 'same'}</td>
            </tr>
          );
        })}
        <tr className={fd.location === 'key' ? 'dbg-row-bad' : undefined}>
          <td>{terms.length + 1}</td>
          <td>
            <code>merchant_control_key</code>
          </td>
          <td>
            <code>{fd.location === 'key' ? fd.expected : '<merchant_control_key>'}</code>
          </td>
          <td>{fd.location === 'key' ? <code>{fd.actual}</code> : 'same'}</td>
        </tr>
      </tbody>
    </table>
  );
}

function PairDifference({ ours, theirs, fd }: { ours: string; theirs: string; fd: FirstDifference }) {
  const a = pairsOf(ours);
  const b = pairsOf(theirs);
  const rows = Math.max(a.pairs.length, b.pairs.length);
  return (
    <table className="dbg-table" aria-label="Pair by pair">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">The description signs</th>
          <th scope="col">
            {fd.against === 'pasted-expected' ? 'The gateway’s base string' : 'The signer signed'}
          </th>
        </tr>
      </thead>
      <tbody>
        <tr className={a.method !== b.method ? 'dbg-row-bad' : undefined}>
          <th scope="row">method</th>
          <td>
            <code>{a.method}</code>
          </td>
          <td>{a.method === b.method ? 'same' : <code>{b.method}</code>}</td>
        </tr>
        <tr className={a.url !== b.url ? 'dbg-row-bad' : undefined}>
          <th scope="row">URL</th>
          <td>
            <code>{a.url}</code>
          </td>
          <td>{a.url === b.url ? 'same' : <code>{b.url}</code>}</td>
        </tr>
        {Array.from({ length: rows }, (_, i) => {
          const x = a.pairs[i] ?? '';
          const y = b.pairs[i] ?? '';
          const bad = x !== y;
          return (
            <tr key={i} className={bad ? 'dbg-row-bad' : undefined} aria-invalid={bad || undefined}>
              <th scope="row">{i + 1}</th>
              <td>
                <code>{x || '(none)'}</code>
              </td>
              <td>{bad ? <code>{y || '(none)'}</code> : 'same'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FirstDifferenceView({ d }: { d: Diagnosis }) {
  const fd = d.firstDifference;
  if (!fd) {
    return d.firstDifferenceNote ? (
      <section className="dbg-block" aria-labelledby="dbg-fd">
        <h2 id="dbg-fd">First difference</h2>
        <p>{d.firstDifferenceNote}</p>
      </section>
    ) : null;
  }
  const ours =
    d.scheme === 'control' ? (d.expected.control?.signingInput ?? '') : (d.expected.oauth?.baseString ?? '');
  const theirs =
    fd.against === 'pasted-expected'
      ? (d.expectedDiff?.theirs ?? '')
      : (d.likelyCauses.find((c) => c.mistakeId === fd.mistakeId && c.mistakenSigningInput)
          ?.mistakenSigningInput ?? '');
  const whom = fd.against === 'pasted-expected' ? 'the gateway’s text' : 'the mistaken signing';
  return (
    <section className="dbg-block" aria-labelledby="dbg-fd">
      <h2 id="dbg-fd">First difference</h2>
      <p aria-label="First difference" role="note">
        {fd.description}
        {fd.offset !== undefined ? ` (character ${fd.offset})` : ''}.
      </p>
      {d.scheme === 'control' ? (
        <ControlDifference d={d} fd={fd} />
      ) : theirs ? (
        <PairDifference ours={ours} theirs={theirs} fd={fd} />
      ) : null}
      {theirs && ours !== theirs ? (
        <>
          <h3>{d.scheme === 'control' ? 'Within the signing input' : 'Within the base string'}</h3>
          <Segments segments={diffText(ours, theirs)} label="Signing input difference" />
          <Legend ours="the description’s signing input" theirs={whom} />
        </>
      ) : null}
    </section>
  );
}

export function DiagnosisView({
  parsed,
  d,
  now,
  onReadAs,
}: {
  parsed: ParsedCapture;
  d: Diagnosis;
  now: number;
  /** Reads the capture again as another format it also reads as (a wrong guess, one click away). */
  onReadAs?: (format: CaptureFormat) => void;
}) {
  const causes = d.likelyCauses;
  const notes = captureNotes(parsed, d);
  const maskedFinding = d.structuralFindings.find((f) => f.id === 'masked-values');
  const masked = d.masked?.signed ? maskedFinding : undefined;
  const replay = d.masked
    ? ` The capture is masked (${d.masked.fields.join(', ')}): it cannot be replayed as is; type the real ${d.masked.fields.length === 1 ? 'value' : 'values'} before sending it again.`
    : '';
  return (
    <div className="dbg-out">
      <p className="dbg-summary">
        Read as a <strong aria-label="Read as">{CAPTURE_FORMAT_LABEL[parsed.format]}</strong> ·{' '}
        <CaptureTarget d={d} />
        {d.scheme !== 'control' ? ` · timestamps judged against ${new Date(now).toISOString()}` : ''}
      </p>
      {onReadAs ? <AlsoReadsAs parsed={parsed} onReadAs={onReadAs} /> : null}
      <p
        className={`dbg-verdict dbg-verdict-${d.verdict}`}
        role="status"
        tabIndex={-1}
        data-verdict
        aria-label={`Verdict: ${masked && d.verdict === 'cannot-check' ? MASKED_LABEL : VERDICT_LABEL[d.verdict]}`}
      >
        {masked && d.verdict === 'cannot-check' ? MASKED_LABEL : VERDICT_LABEL[d.verdict]}
      </p>
      <p className="dbg-verdict-text">
        {d.verdict === 'ok'
          ? d.masked
            ? `The received signature is the one the description gives for these values.${replay}`
            : 'The received signature is the one the description gives for these values, and nothing else is wrong.'
          : d.verdict === 'mismatch'
            ? (d.signatureMatches
                ? 'The signature itself checks out, but the request breaks a rule (see the causes and findings).'
                : 'The received signature is not the one the description gives for these values.') + replay
            : masked
              ? `The signature cannot be checked over masked data (${masked.subject ?? 'card data'}): it was computed over the original values, so the key is not to blame. Paste the original request as it was sent, or an export made without masking.`
              : `Give the secret to recompute the signature; the checks that need no secret ran.${replay}`}
      </p>
      {notes.length > 0 ? (
        <ul className="dbg-notes" aria-label="Notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      ) : null}

      {causes.length > 0 ? (
        <section className="dbg-block" aria-labelledby="dbg-causes">
          <h2 id="dbg-causes">Likely causes, most likely first</h2>
          <ol className="dbg-causes" aria-label="Likely causes">
            {causes.map((c, i) => (
              <Cause key={`${c.mistakeId}-${i}`} cause={c} rank={i} />
            ))}
          </ol>
        </section>
      ) : null}

      <FirstDifferenceView d={d} />

      <section className="dbg-block" aria-labelledby="dbg-findings">
        <h2 id="dbg-findings">Structural findings</h2>
        {d.structuralFindings.length === 0 ? (
          <p>
            None: headers, method, body encoding, fields and{' '}
            {d.scheme === 'control' ? 'control' : 'OAuth header'} look right.
          </p>
        ) : (
          <ul className="dbg-findings" aria-label="Structural findings">
            {d.structuralFindings.map((f, i) => (
              <li key={i} className={`dbg-finding dbg-finding-${f.severity}`}>
                <span className={`dbg-badge dbg-badge-${f.severity}`}>{f.severity}</span>{' '}
                <InlineCode text={f.message} />
                {f.mistakeId ? (
                  <>
                    {' '}
                    <code className="dbg-id">{f.mistakeId}</code>
                  </>
                ) : null}
                {f.rule ? <Rule rule={ruleById(f.rule)} /> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      {d.expectedDiff ? (
        <section className="dbg-block" aria-labelledby="dbg-expected">
          <h2 id="dbg-expected">
            The gateway’s expected {d.scheme === 'control' ? 'concatenation' : 'base string'} against ours
          </h2>
          {d.expectedDiff.equal ? (
            <p role="note">Identical: the gateway signed the same text, so the difference is the key.</p>
          ) : (
            <>
              <Segments segments={d.expectedDiff.segments} label="Expected base string difference" />
              <Legend ours="ours" theirs="the gateway’s" />
            </>
          )}
        </section>
      ) : null}

      <section className="dbg-block" aria-labelledby="dbg-ours">
        <h2 id="dbg-ours">What the description gives for these values</h2>
        {d.expected.control ? (
          <dl className="dbg-dl">
            <dt>Formula</dt>
            <dd>
              <code>{d.expected.control.formula}</code>
            </dd>
            <dt>Signing input</dt>
            <dd>
              <pre className="ui-code" role="group" aria-label="Our signing input">
                {d.expected.control.signingInput}
              </pre>
            </dd>
            <dt>Expected control</dt>
            <dd>
              <code aria-label="Expected control">
                {d.expected.control.value ?? '(needs the control key)'}
              </code>
            </dd>
            <dt>Received control</dt>
            <dd>
              <code aria-label="Received control">{d.received ?? '(none)'}</code>
            </dd>
          </dl>
        ) : null}
        {d.expected.oauth ? (
          <dl className="dbg-dl">
            <dt>Normalized URL</dt>
            <dd>
              <code>{d.expected.oauth.normalizedUrl}</code>
            </dd>
            <dt>Base string</dt>
            <dd>
              <pre className="ui-code" role="group" aria-label="Our base string">
                {d.expected.oauth.baseString}
              </pre>
            </dd>
            {d.scheme === 'oauth-hmac-sha1' ? (
              <>
                <dt>Expected oauth_signature</dt>
                <dd>
                  <code aria-label="Expected signature">
                    {d.expected.oauth.signature ?? '(needs the control key)'}
                  </code>
                </dd>
              </>
            ) : null}
            <dt>Received oauth_signature</dt>
            <dd>
              <code aria-label="Received signature">{d.received ?? '(none)'}</code>
            </dd>
          </dl>
        ) : null}
        {d.triedUrls.length > 1 ? (
          <p>
            The capture does not say http or https: both were tried (
            {d.triedUrls
              .map((t) => `${t.url}: ${t.matches === null ? 'not checked' : t.matches ? 'matches' : 'no'}`)
              .join('; ')}
            ).
          </p>
        ) : null}
      </section>
    </div>
  );
}
