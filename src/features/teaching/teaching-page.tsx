import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import {
  isPayError,
  renderRawHttp,
  toOAuthTimestamp,
  type BuiltRequest,
  type Scheme,
} from '../../core/index.ts';
import { mistakeById, type MistakeId, type TeachResult, type Walkthrough } from '../../diagnose/index.ts';
import {
  findOperation,
  GROUP_TITLES,
  OPERATIONS,
  placeholderOf,
  type Operation,
  type OperationGroup,
  SCHEME_TITLES,
} from '../../catalog/index.ts';
import { schemeOf, type Place, type RequestDraft, type SigningRuntime } from '../../model/index.ts';
import { prepareExchange } from '../../model/exchange.ts';
import type { AnswerReading } from '../../model/read-answer.ts';
import { signingEnvFor, type SigningContext } from '../../shared/contracts/contracts.ts';
import { browserTransport } from '../../shared/browser/proxy-client.ts';
import { InlineCode } from '../../shared/ui/index.ts';
import { MarkedText } from './marked-text.tsx';
import {
  editDraft,
  flatValues,
  orderIdField,
  runTeaching,
  schemesOf,
  switchesFor,
  teachingStart,
  teachingWalkthrough,
  testValues,
  withTestValues,
  withValue,
  type TeachingProfile,
} from './teaching-model.ts';
import { WalkthroughView } from './walkthrough-view.tsx';
import './teaching.css';

export interface TeachingPageProps {
  /** The operation to teach on (`v2/sale`); the page's own picker changes it. */
  operationPath: string | null;
  /** The request to start from (e.g. the workbench's current form). */
  draft?: RequestDraft | null;
  context: SigningContext | null;
  /** Where this console runs: the test values point at its return page and this session's inbox. */
  place: Place;
  /** The app's crypto port, nonce source and clock. */
  runtime: SigningRuntime;
  onPickOperation: (path: string) => void;
}

const DEFAULT_PATH = 'v2/sale';

function freshPinned(runtime: SigningRuntime): { nonce: string; timestamp: string } {
  return { nonce: runtime.nonce(), timestamp: toOAuthTimestamp(runtime.clock()) };
}

const GROUPS = Object.keys(GROUP_TITLES) as OperationGroup[];

function extraNames(op: Operation, values: Record<string, string>): string[] {
  const known = new Set(op.fields.map((f) => f.name));
  return Object.keys(values).filter((k) => !known.has(k) && k !== 'control');
}

/** The teaching mode: one mistake at a time, side by side with the correct signing, and the walkthroughs. */
export function TeachingPage(props: TeachingPageProps) {
  const path = props.operationPath ?? props.draft?.operation ?? DEFAULT_PATH;
  const op = findOperation(path);
  if (!op) {
    return (
      <section className="teach">
        <h1>Teaching mode</h1>
        <p role="alert">
          No operation is at <code>{path}</code>. Pick one:{' '}
          <button
            type="button"
            className="ui-btn ui-btn-small"
            onClick={() => props.onPickOperation(DEFAULT_PATH)}
          >
            Teach on {DEFAULT_PATH}
          </button>
        </p>
      </section>
    );
  }
  const draftForOp = props.draft && props.draft.operation === op.path ? props.draft : null;
  return <OperationTeaching key={op.path} op={op} {...props} draft={draftForOp} />;
}

interface Computed {
  teach: TeachResult | null;
  walk: Walkthrough | null;
  error: string | null;
}

interface Sent {
  which: 'mistaken' | 'correct';
  mistakeId: MistakeId | null;
  mistakeTitle: string | null;
  request: BuiltRequest;
  signingInput: string;
  correctSigningInput: string;
  answer: AnswerReading;
  newOrderId: boolean;
}

function OperationTeaching({
  op,
  draft: given,
  context,
  place,
  runtime,
  onPickOperation,
}: TeachingPageProps & { op: Operation }) {
  const { crypto: cryptoPort, clock } = runtime;
  // The request as the model holds it: the workbench's formula, endpoint and pinned values survive.
  const [draft, setDraft] = useState<RequestDraft>(() => teachingStart(op, given, clock()));
  const scheme = schemeOf(op, draft);
  const values = useMemo(() => flatValues(draft, place), [draft, place]);
  const setValues = (next: (v: Record<string, string>) => Record<string, string>) =>
    setDraft((d) => {
      const before = flatValues(d, place);
      return Object.entries(next(before)).reduce(
        (acc, [name, v]) => (before[name] === v ? acc : withValue(op, acc, place, name, v)),
        d,
      );
    });
  const [pinned, setPinned] = useState(() => given?.pinned ?? freshPinned(runtime));
  const [mistake, setMistake] = useState<MistakeId | null>(null);
  // The profile's other id until the user types one of their own.
  const [typedOtherId, setOtherId] = useState<string | null>(null);
  const otherId = typedOtherId ?? context?.otherEndpoint?.id ?? '';
  const [wrongKey, setWrongKey] = useState<CryptoKey | null>(null);
  const [computed, setComputed] = useState<Computed>({ teach: null, walk: null, error: null });
  const switches = useMemo(() => switchesFor(scheme), [scheme]);
  const valuesId = useId();

  const profile: TeachingProfile | null = useMemo(
    () =>
      context
        ? { baseUrl: context.target.baseUrl, endpoint: context.endpoint, credentials: context.credentials }
        : null,
    [context],
  );
  const wantsWrongRsaKey = mistake === 'wrong-key' && scheme === 'oauth-rsa-sha256';

  useEffect(() => {
    if (!wantsWrongRsaKey || wrongKey) return;
    let live = true;
    void cryptoPort.subtle
      .generateKey(
        {
          name: 'RSASSA-PKCS1-v1_5',
          modulusLength: 2048,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: 'SHA-256',
        },
        false,
        ['sign', 'verify'],
      )
      .then((pair) => {
        if (live) setWrongKey(pair.privateKey);
      });
    return () => {
      live = false;
    };
  }, [wantsWrongRsaKey, wrongKey, cryptoPort]);

  useEffect(() => {
    if (!profile) return;
    let live = true;
    const args = {
      op,
      draft,
      place,
      profile,
      pinned,
      mistake,
      crypto: cryptoPort,
      clock,
      otherId,
      ...(wrongKey ? { wrongPrivateKey: wrongKey } : {}),
    };
    void (async () => {
      try {
        const teach = await runTeaching(args);
        const walk = teachingWalkthrough(args, teach.correct.request);
        if (live) setComputed({ teach, walk, error: null });
      } catch (e) {
        if (live)
          setComputed({
            teach: null,
            walk: null,
            error: isPayError(e) || e instanceof Error ? e.message : String(e),
          });
      }
    })();
    return () => {
      live = false;
    };
  }, [op, draft, place, profile, pinned, mistake, otherId, wrongKey, cryptoPort, clock]);

  const isLocal = context?.target.kind === 'local';
  const send = useMutation<Sent, Error, 'mistaken' | 'correct'>({
    mutationFn: async (which) => {
      if (!context || !profile) throw new Error('No profile is active: fill in the profile bar first.');
      if (context.target.kind !== 'local')
        throw new Error(
          'The teaching mode sends only to the local sandbox: pick the target "local" in the profile bar.',
        );
      const fresh = freshPinned(runtime);
      setPinned(fresh);
      const r = await runTeaching({
        op,
        draft,
        place,
        profile,
        pinned: fresh,
        mistake: which === 'mistaken' ? mistake : null,
        crypto: cryptoPort,
        clock,
        otherId,
        ...(wrongKey ? { wrongPrivateKey: wrongKey } : {}),
      });
      const side = which === 'mistaken' ? r.mistaken : r.correct;
      if (side.signature === null)
        throw new Error(
          `Not sent: ${r.correct.request.problems.map((p) => p.message).join(' ') || 'no signature.'}`,
        );
      // A default port written out is the same address: send it to the target's own URL.
      const wire = { ...side.request, url: r.correct.request.url };
      // Through the model's exchange, the request built here (mistake and all) sent as is.
      const prepared = await prepareExchange(draft, signingEnvFor(context, place, runtime), { built: wire });
      const outcome = await prepared.send(browserTransport(context.target));
      if (!outcome.ok) throw outcome.error;
      const answer = outcome.answer;
      const idField = orderIdField(op);
      const newOrderId = answer.accepted && idField !== undefined;
      if (newOrderId) setValues((v) => ({ ...v, [idField]: testValues(op, clock(), place)[idField] ?? '' }));
      return {
        which,
        mistakeId: which === 'mistaken' ? mistake : null,
        mistakeTitle: which === 'mistaken' && mistake ? (mistakeById(mistake).teachingSwitch ?? null) : null,
        request: wire,
        signingInput: side.signingInput,
        correctSigningInput: r.correct.signingInput,
        answer,
        newOrderId,
      };
    },
  });

  const pickScheme = (s: Scheme) => {
    setDraft((d) => editDraft(op, d, place, (form) => ({ ...form, scheme: s })));
    if (mistake && !switchesFor(s).some((m) => m.id === mistake)) setMistake(null);
  };

  const t = computed.teach;
  const applied = t?.applied[0];
  const notApplied = t?.notApplied[0];
  const m = mistake ? mistakeById(mistake) : null;

  return (
    <section className="teach" aria-labelledby="teach-title">
      <header className="teach-head">
        <h1 id="teach-title">Teaching mode</h1>
        <p>
          Inject one known mistake at a time into the signing of a real request, see how the signing input and
          the signature change, and what the local sandbox answers. Then walk through the scheme step by step
          with the same values.
        </p>
      </header>

      <div className="teach-setup">
        <div className="teach-field">
          <label htmlFor="teach-op">Operation</label>
          <select id="teach-op" value={op.path} onChange={(e) => onPickOperation(e.target.value)}>
            {GROUPS.map((g) => (
              <optgroup key={g} label={GROUP_TITLES[g]}>
                {OPERATIONS.filter((o) => o.group === g).map((o) => (
                  <option key={o.path} value={o.path}>
                    {o.title} ({o.path})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        {schemesOf(op).length > 1 ? (
          <div className="teach-field">
            <label htmlFor="teach-scheme">Scheme</label>
            <select id="teach-scheme" value={scheme} onChange={(e) => pickScheme(e.target.value as Scheme)}>
              {schemesOf(op).map((s) => (
                <option key={s} value={s}>
                  {SCHEME_TITLES[s]}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="teach-scheme">
            Signed with <strong>{SCHEME_TITLES[scheme]}</strong>
          </p>
        )}
        {context ? (
          <p className="teach-hint">
            As <code>{context.credentials.login || '(no login)'}</code> on{' '}
            {context.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'}{' '}
            <code>{context.endpoint.id}</code> of <code>{context.target.baseUrl}</code> (the active profile).
          </p>
        ) : (
          <p className="teach-warn" role="note">
            No active profile: fill in the profile bar (login, control key or private key) to sign.
          </p>
        )}
      </div>

      <details className="teach-values">
        <summary>
          Values ({op.fields.length + extraNames(op, values).length} fields
          {given ? ', from the workbench' : ''})
        </summary>
        <div className="teach-values-actions">
          <button
            type="button"
            className="ui-btn ui-btn-small"
            onClick={() => setDraft((d) => withTestValues(op, d, clock()))}
          >
            Fill with test data
          </button>
          {scheme !== 'control' ? (
            <button
              type="button"
              className="ui-btn ui-btn-small"
              onClick={() => setPinned(freshPinned(runtime))}
            >
              New nonce and timestamp
            </button>
          ) : null}
        </div>
        <div className="teach-values-grid">
          {extraNames(op, values).map((name) => (
            <div className="teach-field" key={`extra-${name}`}>
              <label htmlFor={`${valuesId}-extra-${name}`}>{name}</label>
              <input
                id={`${valuesId}-extra-${name}`}
                value={values[name] ?? ''}
                title="An extra parameter (not a field of this operation)"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
              />
            </div>
          ))}
          {op.fields.map((f) => (
            <div className="teach-field" key={f.name}>
              <label htmlFor={`${valuesId}-${f.name}`}>{f.name}</label>
              <input
                id={`${valuesId}-${f.name}`}
                value={values[f.name] ?? ''}
                placeholder={placeholderOf(f, context?.credentials.login ?? '') ?? undefined}
                title={f.title}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
              />
            </div>
          ))}
        </div>
      </details>
      {scheme !== 'control' ? (
        <p className="teach-hint">
          <code>oauth_nonce</code> <code aria-label="Nonce">{pinned.nonce}</code> ·{' '}
          <code>oauth_timestamp</code> <code aria-label="Timestamp">{pinned.timestamp}</code> (fresh ones on
          every send)
        </p>
      ) : null}

      <fieldset className="teach-switches">
        <legend>Inject one mistake</legend>
        <label className="teach-switch">
          <input
            type="radio"
            name="teach-mistake"
            checked={mistake === null}
            onChange={() => setMistake(null)}
          />
          No mistake
        </label>
        {switches.map((s) => (
          <label className="teach-switch" key={s.id}>
            <input
              type="radio"
              name="teach-mistake"
              checked={mistake === s.id}
              onChange={() => setMistake(s.id)}
            />
            {s.teachingSwitch}
          </label>
        ))}
        {mistake === 'endpoint-vs-group-id' && scheme === 'control' ? (
          <div className="teach-field">
            <label htmlFor="teach-other-id">
              The merchant’s other id (
              {context?.endpoint.kind === 'group' ? 'endpoint id' : 'endpoint group id'})
            </label>
            <input id="teach-other-id" value={otherId} onChange={(e) => setOtherId(e.target.value)} />
          </div>
        ) : null}
        {wantsWrongRsaKey ? (
          <p className="teach-hint">
            {wrongKey
              ? 'Signed with a throwaway RSA-2048 key made in this page, which no merchant registered.'
              : 'Making a throwaway RSA-2048 key…'}
          </p>
        ) : null}
      </fieldset>

      {computed.error ? (
        <p className="teach-error" role="alert">
          {computed.error}
        </p>
      ) : null}

      {t ? (
        <section className="teach-block" aria-labelledby="teach-cmp">
          <h2 id="teach-cmp">Correct and mistaken, side by side</h2>
          {m && applied ? (
            <div className="teach-explain">
              <p>
                <strong>{m.teachingSwitch}:</strong> {applied.detail}.
              </p>
              {m.rules.map((r, i) => (
                <p className="teach-rule" key={i}>
                  Breaks <cite>{`${r.document} › ${r.section}`}</cite>: <InlineCode text={r.quote} />
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
              disabled={!isLocal || send.isPending || t.mistaken.signature === null}
              onClick={() => send.mutate('mistaken')}
            >
              Send the mistaken request to the local sandbox
            </button>
            <button
              type="button"
              className="ui-btn"
              disabled={!isLocal || send.isPending || t.correct.signature === null}
              onClick={() => send.mutate('correct')}
            >
              Send the correct request
            </button>
          </div>
          {!isLocal && context ? (
            <p className="teach-hint">
              Sending needs the local sandbox: pick the target “local” in the profile bar.
            </p>
          ) : null}
          {send.isPending ? <p role="status">Sending to the local sandbox…</p> : null}
          {send.error ? (
            <p className="teach-error" role="alert">
              {send.error.message}
            </p>
          ) : null}
          {send.data && !send.isPending ? <SandboxAnswerView sent={send.data} /> : null}
        </section>
      ) : null}

      <WalkthroughView
        walk={computed.walk}
        scheme={scheme}
        currentPath={op.path}
        onWalk={(p) => (p === op.path ? undefined : onPickOperation(p))}
      />
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

function SandboxAnswerView({ sent }: { sent: Sent }) {
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
