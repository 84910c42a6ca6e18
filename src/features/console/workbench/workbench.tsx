import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { findOperation, type Operation } from '../../../catalog/index.ts';
import {
  draftFromValues,
  emptyDraft,
  formFromDraft,
  type Place,
  type RequestDraft,
  type SigningRuntime,
} from '../../../model/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { ConfirmDialog, useIdle } from '../../../ui/index.ts';
import { fromFormulaRows, toFormulaRows } from '../form/form-params.ts';
import { LivePanes, type PanesHandle, type PreviewRef } from '../panes/live-panes.tsx';
import type { FieldValues, MetaValues } from '../form/meta.ts';
import { OperationForm } from '../form/operation-form.tsx';
import { revealField } from '../form/reveal-field.ts';
import { loadTimeoutSeconds, saveTimeoutSeconds } from '../send/send-timeout.ts';
import { OperationHeader } from './operation-header.tsx';
import { SendBar } from './send-bar.tsx';
import { UnknownOutcomeSlot } from './unknown-outcome-slot.tsx';
import { useTestDataFill } from './use-test-data-fill.ts';
import { browserSendSession, workbenchSendJob } from './workbench-send.ts';
import { variablesStore } from '../../../browser/variables-store.ts';
import { resolveWorkbenchVariables } from '../variables/workbench-variables.ts';
import { SaveFromAnswer, VariablesPanel } from '../variables/lazy-views.ts';
import { WorkbenchSession } from './workbench-session.ts';
import { openedKey } from './opened-key.ts';
import '../console.css';
import { useStore } from '../../../ui/use-store.ts';

// What only matters after a send (the answer, polling, follow-ups, callbacks) loads after the form.
const AnswerView = lazy(() => import('../answer/answer-view.tsx').then((m) => ({ default: m.AnswerView })));
// Only a request opened without some of its values (masked when kept) names them above the form.
const WithheldValues = lazy(() =>
  import('../form/withheld-values.tsx').then((m) => ({ default: m.WithheldValues })),
);
// The form's checks (zod and its resolver) are not needed to show or sign the first form.
const loadValidation = () => import('../form/form-validation.ts');
const CallbacksPanel = lazy(() =>
  import('../callbacks/callbacks-panel.tsx').then((m) => ({ default: m.CallbacksPanel })),
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
  const contextRef = useRef(context);
  contextRef.current = context;
  const currentDraftRef = useRef<() => RequestDraft>(() => emptyDraft(op.path));
  const startSendRef = useRef<(timeoutSeconds: number) => void>(() => undefined);
  const timeoutInput = useRef<HTMLInputElement>(null);
  const previewRef = useRef<PreviewRef['current']>(null) as PreviewRef;
  const panesRef = useRef<PanesHandle | null>(null);
  const getPreview = useCallback(() => previewRef.current, [previewRef]);

  const report = useCallback(
    (ex: Exchange) => {
      void Promise.resolve(onExchange(ex)).catch(() => undefined);
    },
    [onExchange],
  );
  const reportRef = useRef(report);
  reportRef.current = report;

  const [wbSession] = useState(
    () =>
      new WorkbenchSession(
        op,
        {
          clock: () => runtime.clock(),
          timeouts: { load: () => loadTimeoutSeconds(), save: (s) => saveTimeoutSeconds(s) },
          draft: () => currentDraftRef.current(),
          check: async () =>
            (await form.trigger()) ? [] : (await validation).invalidNames(form.getValues()),
          focusField: (name) => {
            revealField(name);
            form.setFocus(name);
          },
          focusTimeout: () => timeoutInput.current?.focus(),
          production: () => contextRef.current?.target.kind === 'production',
          sending: () => session.getSnapshot().pending,
          send: (seconds) => startSendRef.current(seconds),
        },
        { endpoint: opened.endpoint, withheld: opened.withheld, sendOnOpen },
      ),
  );
  const wb = useStore(wbSession);
  const { endpoint, withheld } = wb;
  const neededFields = useMemo(() => Object.keys(withheld ?? {}), [withheld]);
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
  currentDraftRef.current = currentDraft;
  const watchFields = useCallback(
    (onChange: () => void) => {
      const s = form.watch(onChange);
      return () => s.unsubscribe();
    },
    [form],
  );
  // The nonce the preview shows while typing (an unpinned send draws its own, and shows it).
  const [draftNonce] = useState(() => runtime.nonce());
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

  const [session] = useState(() =>
    browserSendSession(
      contextRef,
      panesRef,
      (record) => reportRef.current(record),
      (outcome) => wbSession.answered(outcome.sentKey),
    ),
  );
  const sending = useStore(session);
  // Leaving the operation drops its send in flight (the proxy then drops the upstream call).
  useEffect(() => () => session.cancel(), [session]);

  startSendRef.current = (timeoutSeconds: number) => {
    void session.send(() =>
      workbenchSendJob(
        op,
        contextRef.current,
        resolveWorkbenchVariables(currentDraft(), contextRef.current, variablesStore.getSnapshot()).draft,
        panesRef.current?.shown(),
        placeRef.current,
        runtime,
        timeoutSeconds,
      ),
    );
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
        e.preventDefault();
        void wbSession.requestSend();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [wbSession]);

  // Through requestSend, so the form's checks and the production confirmation still apply.
  useEffect(() => {
    if (context) void wbSession.profileReady();
  }, [context, wbSession]);

  const onFill = useTestDataFill(op, form, runtime, wbSession, placeRef, contextRef);

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
    wbSession.cleared();
  }, [op, form, meta, wbSession]);

  const draftChangeRef = useRef(onDraftChange);
  draftChangeRef.current = onDraftChange;
  useEffect(() => {
    const emit = () => {
      const d = currentDraft();
      draftChangeRef.current?.(d);
      // A boolean that rarely flips: typing does not re-render the workbench for it.
      wbSession.formChanged(d);
    };
    emit();
    const a = form.watch(emit);
    const b = meta.watch(emit);
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  }, [currentDraft, form, meta, wbSession]);

  const outcome = sending.outcome;
  return (
    <article className="wb" aria-labelledby="op-title">
      <OperationHeader
        op={op}
        context={context}
        opened={endpoint}
        onUseProfileEndpoint={() => wbSession.useProfileEndpoint()}
      />
      <div className="wb-grid">
        <form
          className="wb-col-form"
          aria-label={`${op.title} parameters`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void wbSession.requestSend();
          }}
        >
          {withheld ? (
            <Suspense fallback={null}>
              <WithheldValues withheld={withheld} form={form} meta={meta} refusals={wb.refusals} />
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
            needed={neededFields}
          />
          <SendBar
            context={context}
            sending={sending}
            wb={wb}
            session={wbSession}
            timeoutInput={timeoutInput}
            control={form.control}
            onCancel={() => session.cancel()}
            onNavigate={onNavigate}
          />
        </form>
        <div className="wb-col-panes">
          <UnknownOutcomeSlot {...{ session, context, place, runtime, onNavigate }} onExchange={report} />
          {outcome && !(sending.error && sending.unknown) ? (
            <Suspense fallback={<p role="status">Loading the answer…</p>}>
              <AnswerView
                op={op}
                outcome={outcome}
                context={context}
                place={place}
                runtime={runtime}
                onExchange={report}
                onNavigate={onNavigate}
                stale={wb.stale}
              />
              <SaveFromAnswer outcome={outcome} context={context} />
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
              <VariablesPanel context={context} />
              <CallbacksPanel
                controlKey={context?.credentials.controlKey}
                crypto={runtime.crypto}
                login={context?.credentials.login}
                answer={outcome?.interpreted.json}
              />
            </Suspense>
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={wb.confirming}
        title="Send to production?"
        confirmLabel="Send to production"
        onConfirm={() => wbSession.send()}
        onCancel={() => wbSession.cancelConfirmation()}
      >
        <p>
          <strong>{op.title}</strong> moves real money and the target <strong>{context?.target.name}</strong>{' '}
          is a production gateway ({context?.target.baseUrl}).
        </p>
      </ConfirmDialog>
    </article>
  );
}
