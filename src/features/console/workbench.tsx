import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { describeFormula, type EndpointRef } from '../../core/index.ts';
import { findOperation, OPERATION_SOURCE_LABEL, SCHEME_TITLES, type Operation } from '../../catalog/index.ts';
import {
  draftFromValues,
  draftKey,
  emptyDraft,
  formFromDraft,
  missingValues,
  returnUrlOf,
  schemeOf,
  type Place,
  type RequestDraft,
  type SigningRuntime,
} from '../../model/index.ts';
import { signingEnvFor, type Exchange, type SigningContext } from '../../shared/contracts/contracts.ts';
import { browserTransport } from '../../shared/browser/proxy-client.ts';
import { ConfirmDialog, useIdle } from '../../shared/ui/index.ts';
import { endpointRefusal } from './build.ts';
import { SendSession } from './send-session.ts';
import { takesEarlierIds } from './takes-earlier-ids.ts';
import { fromFormulaRows, toFormulaRows } from './form-params.ts';
import { LivePanes, type PanesHandle, type PreviewRef } from './live-panes.tsx';
import type { FieldValues, MetaValues } from './meta.ts';
import { provenanceLabel } from './labels.ts';
import { OperationForm } from './operation-form.tsx';
import type { SendAborted } from './send-lifecycle.ts';
import { loadTimeoutSeconds, parseTimeoutSeconds, saveTimeoutSeconds } from './send-timeout.ts';
import { freshOrderId, testDataFor } from './test-data.ts';
import './console.css';

// What only matters after a send (the answer, polling, follow-ups, callbacks) loads after the form.
const AnswerView = lazy(() => import('./answer-view.tsx').then((m) => ({ default: m.AnswerView })));
// Cancel and timeout matter only once a send is under way.
// The failed Send's summary loads with the first failed Send.
const InvalidSummary = lazy(() =>
  import('./invalid-summary.tsx').then((m) => ({ default: m.InvalidSummary })),
);
const SendStopped = lazy(() => import('./send-stopped.tsx').then((m) => ({ default: m.SendStopped })));
const loadLifecycle = () => import('./send-lifecycle.ts');
// The model's exchange (prepare → send → read → record) loads with the first Send.
const loadExchange = () => import('../../model/exchange.ts');
// Only a request opened without some of its values (masked when kept) names them above the form.
const WithheldValues = lazy(() =>
  import('./withheld-values.tsx').then((m) => ({ default: m.WithheldValues })),
);
// The form's checks (zod and its resolver) are not needed to show or sign the first form.
const loadValidation = () => import('./form-validation.ts');
const CallbacksPanel = lazy(() =>
  import('./callbacks-panel.tsx').then((m) => ({ default: m.CallbacksPanel })),
);

export interface WorkbenchNavigation {
  operationPath: string;
  draft?: RequestDraft;
}

export interface WorkbenchProps {
  operationPath: string;
  context: SigningContext | null;
  /** Where the console runs: its origin, this session's inbox and the profile's login. */
  place: Place;
  /** The crypto port, nonce source and clock, made once by the app. */
  runtime: SigningRuntime;
  /** The request to open (from history, a share link, an import, a follow-up). */
  draft?: RequestDraft | null;
  onExchange: (ex: Exchange) => void | Promise<void>;
  onNavigate: (to: WorkbenchNavigation) => void;
  /** Called with the form's request whenever it changes (for export, share and teaching tools). */
  onDraftChange?: (current: RequestDraft) => void;
  /** Send the opened draft once, as soon as a profile is active ("re-send in one click"). */
  sendOnOpen?: boolean;
}

const draftIds = new WeakMap<RequestDraft, number>();
let nextDraftId = 1;
function openedKey(d: RequestDraft | null | undefined): string {
  if (!d) return 'none';
  let id = draftIds.get(d);
  if (id === undefined) {
    id = nextDraftId++;
    draftIds.set(d, id);
  }
  return String(id);
}

/** The workbench of one operation: its form, the live signing panes, sending and the answer. */
export function Workbench(props: WorkbenchProps) {
  const op = findOperation(props.operationPath);
  if (!op) {
    return (
      <section className="wb-unknown">
        <h1>Unknown operation</h1>
        <p>
          No operation is at <code>{props.operationPath}</code>. Pick one from the list of operations.
        </p>
      </section>
    );
  }
  return <OperationWorkbench key={`${op.path}|${openedKey(props.draft)}`} op={op} {...props} />;
}

function OperationHeader({
  op,
  context,
  opened,
  onUseProfileEndpoint,
}: {
  op: Operation;
  context: SigningContext | null;
  opened: EndpointRef | undefined;
  onUseProfileEndpoint: () => void;
}) {
  const endpoint = opened ?? context?.endpoint;
  return (
    <header className="wb-head">
      <h1 id="op-title">{op.title}</h1>
      <p className="wb-path">
        <span className="wb-method">POST</span>{' '}
        <code>
          {context ? context.target.baseUrl : '{base_url}'}/api/{op.path}/
          {endpoint ? (endpoint.kind === 'group' ? `group/${endpoint.id}` : endpoint.id) : '{endpointId}'}
        </code>
      </p>
      {opened && (opened.kind !== context?.endpoint.kind || opened.id !== context.endpoint.id) ? (
        <p className="wb-hint" role="note">
          The {opened.kind === 'group' ? 'endpoint group' : 'endpoint'} {opened.id} comes with the opened
          request, not from the profile.{' '}
          <button type="button" className="ui-btn ui-btn-small" onClick={onUseProfileEndpoint}>
            Use the profile’s endpoint
          </button>
        </p>
      ) : null}
      <ul className="wb-tags" aria-label="Operation facts">
        <li>
          <code>{op.id}</code>
        </li>
        <li>
          {SCHEME_TITLES[op.scheme]}
          {op.schemeSource !== 'description' ? (
            <span className={`wb-prov wb-prov-${op.schemeSource}`}>
              scheme {provenanceLabel(op.schemeSource)}
            </span>
          ) : null}
        </li>
        {op.scheme === 'control' && op.formula ? (
          <li>
            control = sha1(<code>{describeFormula(op.formula)}</code>)
            {op.formulaSource && op.formulaSource !== 'description' ? (
              <span className={`wb-prov wb-prov-${op.formulaSource}`}>
                formula {provenanceLabel(op.formulaSource)}
              </span>
            ) : null}
          </li>
        ) : null}
        {op.movesMoney ? <li className="wb-tag-money">moves money</li> : null}
        {op.exampleOnly ? <li>only in the description's authentication examples</li> : null}
        {op.source ? <li>{OPERATION_SOURCE_LABEL[op.source]}</li> : null}
        {op.requestSchemaName ? <li>request schema {op.requestSchemaName}</li> : null}
        <li>answer {op.response}</li>
      </ul>
      <p className="wb-summary">{op.summary}</p>
    </header>
  );
}

function OperationWorkbench({
  op,
  context,
  place,
  runtime,
  draft,
  onExchange,
  onNavigate,
  onDraftChange,
  sendOnOpen,
}: WorkbenchProps & { op: Operation }) {
  const profileLogin = context?.credentials.login ?? '';
  // The callback inbox is not needed for the first signature: it loads once the page is idle.
  const afterFirstForm = useIdle();
  const validation = useMemo(() => loadValidation().then((m) => m.formValidation(op)), [op]);
  const resolver = useCallback<Resolver<FieldValues>>(
    async (values, ctx, options) => (await validation).resolver(values, ctx, options),
    [validation],
  );
  // The opened draft, resolved once for this place: the form then holds plain strings.
  const [opened] = useState(() => formFromDraft(op, draft ?? emptyDraft(op.path), place));
  const [endpoint, setEndpoint] = useState<EndpointRef | undefined>(opened.endpoint);
  // Values the opened request came without: empty until typed again, and a send asks for them.
  const [withheld, setWithheld] = useState(opened.withheld);
  const form = useForm<FieldValues>({
    resolver,
    mode: 'onChange',
    defaultValues: opened.values,
  });
  const meta = useForm<MetaValues>({
    defaultValues: {
      extras: opened.extras.map((e) => ({ ...e })),
      formula: toFormulaRows(opened.formula),
      scheme: opened.scheme,
      pin: opened.pinned !== undefined,
      nonce: opened.pinned?.nonce ?? '',
      timestamp: opened.pinned?.timestamp ?? '',
    },
  });
  const placeRef = useRef(place);
  placeRef.current = place;
  const endpointRef = useRef(endpoint);
  endpointRef.current = endpoint;
  /** The form's request as the model holds it: every surface reads this one shape. */
  const toDraft = useCallback(
    (values: FieldValues, m: Partial<MetaValues>): RequestDraft =>
      draftFromValues(
        op,
        {
          values,
          extras: (m.extras ?? []).map((e) => ({ name: e.name, value: e.value })),
          scheme: m.scheme ?? op.scheme,
          formula: fromFormulaRows(m.formula ?? toFormulaRows(op.formula ?? [])),
          pinned: m.pin ? { nonce: m.nonce ?? '', timestamp: m.timestamp ?? '' } : undefined,
          endpoint: endpointRef.current,
          withheld,
        },
        placeRef.current,
      ),
    // `endpoint` is read through its ref; listed so that the panes rebuild when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [op, endpoint, place, withheld],
  );
  const currentDraft = useCallback(() => toDraft(form.getValues(), meta.getValues()), [toDraft, form, meta]);
  const watchFields = useCallback(
    (onChange: () => void) => {
      const s = form.watch(onChange);
      return () => s.unsubscribe();
    },
    [form],
  );
  // The nonce the preview shows while typing (an unpinned send draws its own, and shows it).
  const [draftNonce] = useState(() => runtime.nonce());
  const previewRef = useRef<PreviewRef['current']>(null) as PreviewRef;
  const panesRef = useRef<PanesHandle | null>(null);
  const getPreview = useCallback(() => previewRef.current, [previewRef]);
  const contextRef = useRef(context);
  contextRef.current = context;
  const [confirming, setConfirming] = useState(false);
  const [invalid, setInvalid] = useState<string[] | null>(null);
  // Sends refused for values the opened request came without (the box above the form says which).
  const [refusals, setRefusals] = useState(0);
  const [timeoutText, setTimeoutText] = useState(() => String(loadTimeoutSeconds()));
  const timeout = parseTimeoutSeconds(timeoutText);
  const timeoutSeconds = timeout.ok ? timeout.seconds : null;
  const timeoutInput = useRef<HTMLInputElement>(null);
  // The key of the request the answer on screen belongs to; the form is compared with it.
  const sentKeyRef = useRef<string | null>(null);
  const [stale, setStale] = useState(false);
  const prevLogin = useRef(profileLogin);
  useEffect(() => {
    const prev = prevLogin.current;
    prevLogin.current = profileLogin;
    if (prev === profileLogin) return;
    for (const f of op.fields) {
      if (f.fromProfile !== 'login') continue;
      const cur = form.getValues(f.name) ?? '';
      if (cur === '' || cur === prev) form.setValue(f.name, profileLogin, { shouldValidate: true });
    }
  }, [profileLogin, op, form]);

  const report = useCallback(
    (ex: Exchange) => {
      void Promise.resolve(onExchange(ex)).catch(() => undefined);
    },
    [onExchange],
  );
  const reportRef = useRef(report);
  reportRef.current = report;

  const [session] = useState(
    () =>
      new SendSession({
        prepare: (d, env, options) =>
          loadExchange().then((m) =>
            m.prepareExchange(d, env, options).catch((e: unknown) => {
              // The profile bar names what is wrong with the endpoint id, beside the field: say it once.
              const code = (e as { code?: unknown }).code;
              const ctx = contextRef.current;
              if (
                ctx &&
                typeof code === 'string' &&
                (code === 'SEND_ENDPOINT' || code.startsWith('ENDPOINT_'))
              )
                throw new Error(endpointRefusal(ctx.endpoint));
              throw e;
            }),
          ),
        lifecycle: (seconds) => loadLifecycle().then((m) => new m.SendLifecycle(seconds)),
        onExchange: (record) => reportRef.current(record),
        onBuilt: (key, built) => {
          const ctx = contextRef.current;
          if (ctx) panesRef.current?.show(key, ctx, built);
        },
        onAnswer: (outcome) => {
          sentKeyRef.current = outcome.sentKey;
          setStale(false);
        },
      }),
  );
  const sending = useSyncExternalStore(session.subscribe, session.getSnapshot);
  // Leaving the operation drops its send in flight (the proxy then drops the upstream call).
  useEffect(() => () => session.cancel(), [session]);

  const startSend = useCallback(() => {
    void session.send(() => {
      const ctx = contextRef.current;
      if (!ctx) throw new Error('No profile is active: fill in the profile bar first.');
      const draft = currentDraft();
      const key = draftKey(draft);
      // Send what is on screen, byte for byte. Only an unpinned OAuth request is due a fresh
      // nonce and timestamp: the exchange builds it again, and the panes show what is sent.
      const shown = panesRef.current?.shown();
      const fresh = schemeOf(op, draft) !== 'control' && draft.pinned === undefined;
      const reuse = !fresh && shown && shown.key === key && shown.context === ctx;
      return {
        draft,
        key,
        env: signingEnvFor(ctx, placeRef.current, runtime),
        ...(reuse ? { built: shown.built } : {}),
        party: { profileName: ctx.profileName, targetName: ctx.target.name },
        transport: browserTransport(ctx.target),
        timeoutSeconds: timeoutSeconds ?? loadTimeoutSeconds(),
      };
    });
  }, [session, currentDraft, op, runtime, timeoutSeconds]);

  const send = useCallback(() => {
    setConfirming(false);
    setInvalid(null);
    startSend();
  }, [startSend]);

  const requestSend = useCallback(
    async (force = false) => {
      if (session.getSnapshot().pending) return;
      if (timeoutSeconds === null) {
        timeoutInput.current?.focus();
        return;
      }
      // Not even "send anyway" without a value the opened request had: it would send less.
      if (missingValues(currentDraft())[0]) {
        setInvalid(null);
        setRefusals((n) => n + 1);
        return;
      }
      if (!force) {
        const ok = await form.trigger();
        if (!ok) {
          const names = (await validation).invalidNames(form.getValues());
          setInvalid(names);
          const first = names[0];
          if (first) form.setFocus(first);
          return;
        }
      }
      if (contextRef.current?.target.kind === 'production' && op.movesMoney) {
        setConfirming(true);
        return;
      }
      send();
    },
    [form, validation, session, op.movesMoney, send, timeoutSeconds, currentDraft],
  );

  const requestSendRef = useRef(requestSend);
  requestSendRef.current = requestSend;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
        e.preventDefault();
        void requestSendRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Through requestSend, so the form's checks and the production confirmation still apply.
  const sendOnOpenRef = useRef(sendOnOpen);
  useEffect(() => {
    if (!sendOnOpenRef.current || !context) return;
    sendOnOpenRef.current = false;
    void requestSend();
  }, [context, requestSend]);

  const fills = useRef(0);
  const onFill = useCallback(
    (cvv: string) => {
      const now = runtime.clock();
      const values = testDataFor(op, {
        cvv,
        callbackUrl: placeRef.current.inboxUrl,
        returnUrl: returnUrlOf(placeRef.current),
        now: new Date(now),
        orderId: freshOrderId(now),
      });
      const apply = (ids: Record<string, string>) => {
        for (const f of op.fields) {
          if (f.fromProfile) continue;
          form.setValue(f.name, ids[f.name] ?? values[f.name] ?? '', { shouldDirty: true });
        }
        void form.trigger();
        setInvalid(null);
      };
      // v4/sale: a token from the local sandbox's tokenizer; any other target's comes from the
      // merchant's payment page (the note says so). Loaded on use: not on the first load.
      const fillHostedFieldsToken = () => {
        const ctx = contextRef.current;
        const mine = ++fills.current;
        void import('./hosted-fields-fill.ts')
          .then(async (m) => {
            if (!ctx || ctx.target.kind !== 'local') {
              apply({ hosted_fields_token: '' });
              return setInvalid([m.REAL_TOKEN_NOTE]);
            }
            const env = signingEnvFor(ctx, placeRef.current, runtime);
            const token = await m.sandboxHostedFieldsToken(ctx.target, env, cvv, new Date(now));
            if (mine === fills.current) apply({ hosted_fields_token: token });
          })
          .catch((e: unknown) => mine === fills.current && setInvalid([String((e as Error).message ?? e)]));
      };
      if (op.path === 'v4/sale') return fillHostedFieldsToken();
      if (!takesEarlierIds(op)) return apply({});
      // Ids of this session's latest fitting answer, instead of examples that name no real order.
      const mine = ++fills.current;
      void import('./earlier-ids.tsx').then(
        (m) => mine === fills.current && apply(m.bestEarlierIds(op)),
        () => mine === fills.current && apply({}),
      );
    },
    [op, form, runtime],
  );

  const onUseIds = useCallback(
    (ids: Record<string, string>) => {
      for (const [name, value] of Object.entries(ids))
        form.setValue(name, value, { shouldDirty: true, shouldValidate: true });
    },
    [form],
  );

  const onClear = useCallback(() => {
    form.reset(formFromDraft(op, emptyDraft(op.path), placeRef.current).values);
    meta.setValue('extras', []);
    setInvalid(null);
    setWithheld(undefined);
  }, [op, form, meta]);

  const draftChangeRef = useRef(onDraftChange);
  draftChangeRef.current = onDraftChange;
  useEffect(() => {
    const emit = () => {
      const d = currentDraft();
      draftChangeRef.current?.(d);
      // A boolean that rarely flips: typing does not re-render the workbench for it.
      if (sentKeyRef.current !== null) setStale(draftKey(d) !== sentKeyRef.current);
    };
    emit();
    const a = form.watch(emit);
    const b = meta.watch(emit);
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  }, [currentDraft, form, meta]);

  const outcome = sending.outcome;
  return (
    <article className="wb" aria-labelledby="op-title">
      <OperationHeader
        op={op}
        context={context}
        opened={endpoint}
        onUseProfileEndpoint={() => setEndpoint(undefined)}
      />
      <div className="wb-grid">
        <form
          className="wb-col-form"
          aria-label={`${op.title} parameters`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void requestSend();
          }}
        >
          {withheld ? (
            <Suspense fallback={null}>
              <WithheldValues withheld={withheld} form={form} meta={meta} refusals={refusals} />
            </Suspense>
          ) : null}
          <OperationForm
            op={op}
            register={form.register}
            control={form.control}
            meta={meta}
            profileLogin={profileLogin}
            getPreview={getPreview}
            onFill={onFill}
            onClear={onClear}
            onUseIds={onUseIds}
          />
          <p className="ui-visually-hidden" aria-live="polite" aria-atomic="true">
            {outcome
              ? `Answer: HTTP ${outcome.envelope.status} ${outcome.envelope.statusText}, ${outcome.interpreted.badge.label}, at ${new Date(outcome.sentAt).toLocaleTimeString()}.`
              : ''}
          </p>
          <div className="wb-send-bar">
            <button
              type="submit"
              className="ui-btn ui-btn-primary"
              disabled={sending.pending || !context}
              aria-keyshortcuts="Control+Enter Meta+Enter"
            >
              {sending.pending ? 'Sending…' : 'Send'}
            </button>
            {sending.pending ? (
              <button type="button" className="ui-btn" onClick={() => session.cancel()}>
                Cancel
              </button>
            ) : null}
            <span className="wb-timeout">
              <label htmlFor="wb-timeout">Timeout (s)</label>
              <input
                id="wb-timeout"
                ref={timeoutInput}
                inputMode="numeric"
                autoComplete="off"
                size={4}
                value={timeoutText}
                aria-invalid={timeout.ok ? undefined : true}
                aria-describedby={timeout.ok ? undefined : 'wb-timeout-err'}
                onChange={(e) => {
                  setTimeoutText(e.target.value);
                  const r = parseTimeoutSeconds(e.target.value);
                  if (r.ok) saveTimeoutSeconds(r.seconds);
                }}
              />
            </span>
            <span className="wb-hint">
              Ctrl/⌘+Enter · to <strong>{context?.target.name ?? 'no target'}</strong>
              {context?.target.kind === 'production' ? ' (production)' : ''}
            </span>
            {invalid ? (
              <Suspense fallback={null}>
                <InvalidSummary
                  names={invalid}
                  control={form.control}
                  onSendAnyway={() => void requestSend(true)}
                />
              </Suspense>
            ) : null}
            {timeout.ok ? null : (
              <p className="wb-field-error wb-invalid" id="wb-timeout-err">
                {timeout.message}
              </p>
            )}
            {isSendAborted(sending.error) ? (
              <Suspense fallback={<p className="wb-error">{sending.error.message}</p>}>
                <SendStopped error={sending.error} onNavigate={onNavigate} />
              </Suspense>
            ) : sending.error ? (
              <p className="wb-error" role="alert">
                {sending.error.message}
              </p>
            ) : null}
          </div>
        </form>
        <div className="wb-col-panes">
          {outcome ? (
            <Suspense fallback={<p role="status">Loading the answer…</p>}>
              <AnswerView
                op={op}
                outcome={outcome}
                context={context}
                place={place}
                runtime={runtime}
                onExchange={report}
                onNavigate={onNavigate}
                stale={stale}
              />
            </Suspense>
          ) : null}
          <LivePanes
            op={op}
            watchFields={watchFields}
            getFields={form.getValues}
            metaControl={meta.control}
            context={context}
            place={place}
            runtime={runtime}
            toDraft={toDraft}
            draftNonce={draftNonce}
            previewRef={previewRef}
            panesRef={panesRef}
          />
          {afterFirstForm ? (
            <Suspense fallback={null}>
              <CallbacksPanel
                controlKey={context?.credentials.controlKey}
                crypto={runtime.crypto}
                login={context?.credentials.login}
              />
            </Suspense>
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Send to production?"
        confirmLabel="Send to production"
        onConfirm={send}
        onCancel={() => setConfirming(false)}
      >
        <p>
          <strong>{op.title}</strong> moves real money and the target <strong>{context?.target.name}</strong>{' '}
          is a production gateway ({context?.target.baseUrl}).
        </p>
      </ConfirmDialog>
    </article>
  );
}

function isSendAborted(e: Error | null): e is SendAborted {
  return e !== null && e.name === 'SendAborted';
}
