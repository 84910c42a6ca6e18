import type { BuiltRequest } from '../../../core/index.ts';
import type { AnswerReading } from '../../../model/read-answer.ts';
import { compareTerms, diffText, type DiffSegment } from '../../../diagnose/text-diff.ts';
import { readSandboxDebug } from './sandbox-debug.ts';

function Diff({ parts, label }: { parts: DiffSegment[]; label: string }) {
  return (
    <pre className="ui-code wb-diff" role="group" aria-label={label}>
      {parts.map((p, i) =>
        p.op === 'equal' ? (
          <span key={i}>{p.text}</span>
        ) : p.op === 'removed' ? (
          <del key={i}>{p.text}</del>
        ) : (
          <ins key={i}>{p.text}</ins>
        ),
      )}
    </pre>
  );
}

const Legend = () => (
  <p className="wb-diff-legend wb-diff">
    <del>struck through, red</del>: only in the request sent · <ins>underlined, green</ins>: only in what the
    sandbox expected
  </p>
);

export function SignatureMismatch({
  built,
  interpreted,
}: {
  built: BuiltRequest;
  interpreted: AnswerReading;
}) {
  if (!interpreted.signatureRefused) return null;
  const dbg = readSandboxDebug(interpreted.json);
  const s = built.signing;
  if (!dbg) {
    return (
      <section className="wb-mismatch" aria-label="Signature refused">
        <h3>The signature was refused</h3>
        <p>
          The answer carries no signing input to compare with (a real gateway never shows it). Check the key
          in the profile and compare the signing input above with the description.
        </p>
      </section>
    );
  }
  if (dbg.kind === 'control' && s.scheme === 'control') {
    const ours = s.terms.map((t) => ({ label: t.label, value: t.value }));
    const theirs = dbg.debug.terms.map((t) => ({ label: t.term, value: t.value }));
    const rows = compareTerms(ours, theirs);
    const allSame = rows.every((r) => r.same);
    const inputDiff = diffText(s.maskedInput, dbg.debug['signing-input']);
    return (
      <section className="wb-mismatch" aria-label="Signature refused">
        <h3>The sandbox expected a different control</h3>
        <p role="note">
          {allSame
            ? 'Every term matches the sandbox’s: the difference is the merchant control key. Check the control key in the profile.'
            : `${rows.filter((r) => !r.same).length} term${rows.filter((r) => !r.same).length === 1 ? '' : 's'} differ: fix the highlighted ${
                rows.filter((r) => !r.same).length === 1 ? 'term' : 'terms'
              } (value, order or formula).`}
        </p>
        <table className="wb-table wb-term-diff" aria-label="Expected versus sent terms">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Sent</th>
              <th scope="col">Sandbox expected</th>
              <th scope="col">Match</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.index}>
                <td>{r.index + 1}</td>
                <td className={r.same ? undefined : 'wb-term-bad'}>
                  {r.ours ? (
                    <>
                      <code>{r.ours.label}</code> ={' '}
                      <code className="wb-value">{r.ours.value === '' ? '""' : r.ours.value}</code>
                    </>
                  ) : (
                    '(none)'
                  )}
                </td>
                <td className={r.same ? undefined : 'wb-term-bad'}>
                  {r.theirs ? (
                    <>
                      <code>{r.theirs.label}</code> ={' '}
                      <code className="wb-value">{r.theirs.value === '' ? '""' : r.theirs.value}</code>
                    </>
                  ) : (
                    '(none)'
                  )}
                </td>
                <td>{r.same ? '✓' : '✗ differs'}</td>
              </tr>
            ))}
            <tr>
              <td>{rows.length + 1}</td>
              <td>
                <code>merchant_control_key</code>
              </td>
              <td>
                <code>merchant_control_key</code>
              </td>
              <td>{allSame ? '✗ must differ' : '?'}</td>
            </tr>
          </tbody>
        </table>
        <h3>Signing input, sent against expected</h3>
        <Diff parts={inputDiff} label="Signing input difference" />
        <Legend />
        {dbg.debug.formula ? (
          <p className="wb-hint">
            Sandbox formula: <code>{dbg.debug.formula}</code>
          </p>
        ) : null}
      </section>
    );
  }
  if (dbg.kind === 'oauth' && s.scheme !== 'control') {
    const theirs = dbg.debug['base-string'];
    const ours = s.base.baseString;
    const same = ours === theirs;
    const ourPairs = s.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`);
    const theirPairs = dbg.debug.parameters ?? [];
    const onlyOurs = ourPairs.filter((p) => !theirPairs.includes(p));
    const onlyTheirs = theirPairs.filter((p) => !ourPairs.includes(p));
    return (
      <section className="wb-mismatch" aria-label="Signature refused">
        <h3>The sandbox refused the OAuth signature</h3>
        <p role="note">
          {same
            ? s.scheme === 'oauth-hmac-sha1'
              ? 'The base strings are identical: the difference is the signing key. Check the control key in the profile.'
              : `The base strings are identical: the difference is the key. The sandbox verifies with ${dbg.debug['signing-key'] ?? 'the registered public key'}; register the public key of the private key in the profile.`
            : 'The base strings differ: the highlighted characters show where.'}
        </p>
        {!same ? (
          <>
            <Diff parts={diffText(ours, theirs)} label="Base string difference" />
            <Legend />
            {onlyOurs.length + onlyTheirs.length > 0 ? (
              <table className="wb-table" aria-label="Parameters that differ">
                <thead>
                  <tr>
                    <th scope="col">Only in the request sent</th>
                    <th scope="col">Only in the sandbox's base string</th>
                  </tr>
                </thead>
                <tbody>
                  {Array.from({ length: Math.max(onlyOurs.length, onlyTheirs.length) }, (_, i) => (
                    <tr key={i}>
                      <td>
                        <code className="wb-value">{onlyOurs[i] ?? ''}</code>
                      </td>
                      <td>
                        <code className="wb-value">{onlyTheirs[i] ?? ''}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        ) : (
          <pre className="ui-code" role="group" aria-label="Sandbox base string">
            {theirs}
          </pre>
        )}
      </section>
    );
  }
  return (
    <section className="wb-mismatch" aria-label="Signature refused">
      <h3>The signature was refused</h3>
      <p>
        The sandbox checked it with the {dbg.kind === 'control' ? 'control' : 'OAuth'} scheme, but this
        request was signed with {s.scheme}: pick the other scheme.
      </p>
    </section>
  );
}
