import { useEffect, useMemo, useRef, useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import { renderCurl, renderRawHttp, type BuiltRequest } from '../../core/index.ts';
import type { Operation } from '../../catalog/index.ts';
import type { SigningContext } from '../../shared/contracts/contracts.ts';
import { CodeView, CopyButton } from '../../shared/ui/index.ts';
import { buildFor, type BuildResult } from './build.ts';
import { fromFormulaRows, toInputParams } from './form-params.ts';
import type { FieldValues, MetaValues } from './meta.ts';
import { SCHEME_LABEL } from './operation-form.tsx';
import { SigningInputView } from './signing-input-view.tsx';

export interface PreviewRef {
  current: { nonce: string; timestamp: string } | null;
}

function useLiveBuild(
  op: Operation,
  values: FieldValues,
  meta: MetaValues,
  context: SigningContext | null,
  draftNonce: string,
): BuildResult | null {
  const [result, setResult] = useState<BuildResult | null>(null);
  const seq = useRef(0);
  useEffect(() => {
    if (!context) return;
    const mine = ++seq.current;
    const editable =
      meta.scheme === 'control' && op.formulaSource !== undefined && op.formulaSource !== 'description';
    void buildFor({
      op,
      scheme: meta.scheme,
      params: toInputParams(op, values, meta.extras ?? [], context.credentials.login),
      context,
      ...(editable ? { formulaOverride: fromFormulaRows(meta.formula ?? []) } : {}),
      pinned: meta.pin ? { nonce: meta.nonce, timestamp: meta.timestamp } : { nonce: draftNonce },
    }).then((r) => {
      if (mine === seq.current) setResult(r);
    });
  }, [op, values, meta, context, draftNonce]);
  return context ? result : null;
}

function Problems({ built }: { built: BuiltRequest }) {
  if (built.problems.length === 0) return null;
  return (
    <ul className="wb-problems" aria-label="Problems">
      {built.problems.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

export function LivePanes({
  op,
  fieldsControl,
  metaControl,
  context,
  draftNonce,
  previewRef,
}: {
  op: Operation;
  fieldsControl: Control<FieldValues>;
  metaControl: Control<MetaValues>;
  context: SigningContext | null;
  draftNonce: string;
  previewRef: PreviewRef;
}) {
  const values = useWatch({ control: fieldsControl }) as FieldValues;
  const meta = useWatch({ control: metaControl }) as MetaValues;
  const result = useLiveBuild(op, values, meta, context, draftNonce);
  const built = result?.ok ? result.built : null;
  useEffect(() => {
    previewRef.current =
      built && built.signing.scheme !== 'control'
        ? { nonce: built.signing.nonce, timestamp: built.signing.timestamp }
        : null;
  }, [built, previewRef]);
  const raw = useMemo(() => (built ? renderRawHttp(built) : ''), [built]);
  const curl = useMemo(() => (built ? renderCurl(built) : ''), [built]);

  if (!context) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-empty">
          Waiting for a profile: fill in the profile bar (login, control key, endpoint id) to see the
          signature.
        </p>
      </section>
    );
  }
  if (!result) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-empty">Building the request…</p>
      </section>
    );
  }
  if (!result.ok) {
    return (
      <section className="wb-pane" aria-label="Live request">
        <p className="wb-error" role="alert">
          {result.message}
        </p>
      </section>
    );
  }
  const b = result.built;
  const s = b.signing;
  const auth = b.headers.find((h) => h.name === 'Authorization')?.value;
  return (
    <div className="wb-panes">
      <section className="wb-pane" aria-labelledby="pane-input">
        <h3 id="pane-input">
          Signing input <span className="wb-scheme">{SCHEME_LABEL[s.scheme]}</span>
        </h3>
        <Problems built={b} />
        <SigningInputView built={b} controlKey={context.credentials.controlKey} />
      </section>
      <section className="wb-pane" aria-labelledby="pane-sig">
        <h3 id="pane-sig">
          {s.scheme === 'control' ? 'The control parameter' : 'Signature and Authorization header'}
        </h3>
        <div className="wb-sig-row">
          <code className="wb-signature" role="group" aria-label="Signature">
            {s.signature ?? '(not signed)'}
          </code>
          <CopyButton text={s.signature ?? ''} label="Copy signature" disabled={!s.signature} />
        </div>
        {s.scheme === 'control' ? (
          <p className="wb-hint">
            Sent as the body parameter <code>control</code>.
          </p>
        ) : (
          <>
            <p className="wb-hint">
              oauth_nonce{' '}
              <code role="group" aria-label="oauth_nonce value">
                {s.nonce}
              </code>{' '}
              · oauth_timestamp{' '}
              <code role="group" aria-label="oauth_timestamp value">
                {s.timestamp}
              </code>
              {meta.pin ? ' (pinned)' : ' (the next send uses this nonce; its timestamp is taken when sent)'}
            </p>
            <div className="wb-pane-sub">
              <span>Authorization header</span>
              <CopyButton text={auth ?? ''} label="Copy Authorization header" disabled={!auth} />
            </div>
            <pre className="ui-code wb-auth" role="group" aria-label="Authorization header">
              {auth ?? '(not signed)'}
            </pre>
          </>
        )}
      </section>
      <section className="wb-pane" aria-labelledby="pane-raw">
        <div className="wb-pane-head">
          <h3 id="pane-raw">Raw HTTP request</h3>
          <CopyButton text={raw} label="Copy raw HTTP request" />
        </div>
        <CodeView value={raw} language="http" label="Raw HTTP request" />
        <div className="wb-pane-head">
          <h3>curl</h3>
          <CopyButton text={curl} label="Copy curl command" />
        </div>
        <pre className="ui-code" role="group" aria-label="curl command">
          {curl}
        </pre>
      </section>
    </div>
  );
}
