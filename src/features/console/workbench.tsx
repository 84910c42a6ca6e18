import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { describeFormula } from '../../core/index.ts';
import { findOperation, requestSchema, type Operation } from '../../catalog/index.ts';
import type { Exchange, FormPreset, SigningContext } from '../../shared/contracts/contracts.ts';
import { sendThroughProxy } from '../../shared/browser/proxy-client.ts';
import { ConfirmDialog } from '../../shared/ui/index.ts';
import { interpretAnswer } from './answer.ts';
import { AnswerView, type SendOutcome } from './answer-view.tsx';
import { buildFor, nonceSource } from './build.ts';
import { CallbacksPanel } from './callbacks-panel.tsx';
import { callbackUrl } from './callbacks-store.ts';
import { toExchange } from './exchange.ts';
import {
  formulaEditable,
  fromFormulaRows,
  initialValues,
  presetExtras,
  toFormulaRows,
  toInputParams,
} from './form-params.ts';
import { LivePanes, type PreviewRef } from './live-panes.tsx';
import type { FieldValues, MetaValues } from './meta.ts';
import { OperationForm, provenanceLabel, SCHEME_LABEL } from './operation-form.tsx';
import { freshOrderId, testDataFor } from './test-data.ts';
import './console.css';

export interface WorkbenchNavigation {
  operationPath: string;
  preset?: FormPreset;
}

export interface WorkbenchProps {
  operationPath: string;
  context: SigningContext | null;
  preset?: FormPreset | null;
  onExchange: (ex: Exchange) => void | Promise<void>;
  onNavigate: (to: WorkbenchNavigation) => void;
  /** Called with the form's current values whenever they change (for export, share and teaching tools). */
  onValuesChange?: (current: FormPreset) => void;
}

const presetIds = new WeakMap<FormPreset, number>();
let nextPresetId = 1;
function presetKey(p: FormPreset | null | undefined): string {
  if (!p) return 'none';
  let id = presetIds.get(p);
  if (id === undefined) {
    id = nextPresetId++;
    presetIds.set(p, id);
  }
  return String(id);
}

/** The workbench of one operation: its form, the live signing panes, sending and the answer. */
export function Workbench(props: WorkbenchProps) {
  const op = findOperation(props.operationPath);
  if (!op) {
    return (
      <section className="wb-unknown">
        <h2>Unknown operation</h2>
        <p>
          No operation is at <code>{props.operationPath}</code>. Pick one from the list of operations.
        </p>
      </section>
    );
  }
  return <OperationWorkbench key={`${op.path}|${presetKey(props.preset)}`} op={op} {...props} />;
}

function OperationHeader({ op, context }: { op: Operation; context: SigningContext | null }) {
  const endpoint = context?.endpoint;
  return (
    <header className="wb-head">
      <h2 id="op-title">{op.title}</h2>
      <p className="wb-path">
        <span className="wb-method">POST</span>{' '}
        <code>
          {context ? context.target.baseUrl : '{base_url}'}/api/{op.path}/
          {endpoint ? (endpoint.kind === 'group' ? `group/${endpoint.id}` : endpoint.id) : '{endpointId}'}
        </code>
      </p>
      <ul className="wb-tags" aria-label="Operation facts">
        <li>
          <code>{op.id}</code>
        </li>
        <li>
          {SCHEME_LABEL[op.scheme]}
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
  preset,
  onExchange,
  onNavigate,
  onValuesChange,
}: WorkbenchProps & { op: Operation }) {
  const profileLogin = context?.credentials.login ?? '';
  const schema = useMemo(() => requestSchema(op), [op]);
  const form = useForm<FieldValues>({
    // The catalog schema's input is `unknown` per key (catchall); the form holds strings only.
    resolver: zodResolver(schema) as unknown as Resolver<FieldValues>,
    mode: 'onChange',
    defaultValues: initialValues(op, profileLogin, preset?.values),
  });
  const meta = useForm<MetaValues>({
    defaultValues: {
      extras: presetExtras(op, preset?.values, preset?.extras),
      formula: toFormulaRows(op.formula ?? []),
      scheme: op.scheme,
      pin: false,
      nonce: '',
      timestamp: '',
    },
  });
  const [draftNonce, setDraftNonce] = useState(() => nonceSource());
  const draftRef = useRef(draftNonce);
  draftRef.current = draftNonce;
  const previewRef = useRef<PreviewRef['current']>(null) as PreviewRef;
  const getPreview = useCallback(() => previewRef.current, [previewRef]);
  const contextRef = useRef(context);
  contextRef.current = context;
  const [confirming, setConfirming] = useState(false);
  const [invalid, setInvalid] = useState<string[] | null>(null);

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

  const mutation = useMutation<SendOutcome, Error, void>({
    mutationFn: async () => {
      const ctx = contextRef.current;
      if (!ctx) throw new Error('No profile is active: fill in the profile bar first.');
      const m = meta.getValues();
      const pinned = m.pin ? { nonce: m.nonce, timestamp: m.timestamp } : undefined;
      // Unpinned: the nonce the preview shows (drawn fresh, never sent) and the clock's time now.
      const fresh = pinned ?? { nonce: draftRef.current };
      const r = await buildFor({
        op,
        scheme: m.scheme,
        params: toInputParams(op, form.getValues(), m.extras, ctx.credentials.login),
        context: ctx,
        ...(m.scheme === 'control' && formulaEditable(op)
          ? { formulaOverride: fromFormulaRows(m.formula) }
          : {}),
        pinned: fresh,
      });
      if (!r.ok) throw new Error(r.message);
      if (r.built.signing.signature === null) {
        throw new Error(`Not sent: ${r.built.problems.map((p) => p.message).join(' ')}`);
      }
      const sentAt = new Date().toISOString();
      try {
        const envelope = await sendThroughProxy(ctx.target, r.built);
        report(toExchange(op.path, ctx, r.built, sentAt, envelope, undefined, pinned));
        return {
          opPath: op.path,
          built: r.built,
          envelope,
          interpreted: interpretAnswer(op, envelope.status, envelope.body),
          sentAt,
        };
      } catch (e) {
        report(
          toExchange(
            op.path,
            ctx,
            r.built,
            sentAt,
            undefined,
            e instanceof Error ? e.message : String(e),
            pinned,
          ),
        );
        throw e;
      }
    },
    onSettled: () => setDraftNonce(nonceSource()),
  });

  const send = useCallback(() => {
    setConfirming(false);
    setInvalid(null);
    mutation.mutate();
  }, [mutation]);

  const requestSend = useCallback(
    async (force = false) => {
      if (mutation.isPending) return;
      if (!force) {
        const ok = await form.trigger();
        if (!ok) {
          const parsed = schema.safeParse(form.getValues());
          const names = parsed.success
            ? []
            : [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')))];
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
    [form, schema, mutation.isPending, op.movesMoney, send],
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

  const onFill = useCallback(
    (cvv: string) => {
      const values = testDataFor(op, {
        cvv,
        callbackUrl: callbackUrl(),
        returnUrl: `${location.origin}/return`,
        now: new Date(),
        orderId: freshOrderId(Date.now()),
      });
      for (const f of op.fields) {
        if (f.fromProfile) continue;
        form.setValue(f.name, values[f.name] ?? '', { shouldDirty: true });
      }
      void form.trigger();
      setInvalid(null);
    },
    [op, form],
  );

  const onClear = useCallback(() => {
    form.reset(initialValues(op, contextRef.current?.credentials.login ?? ''));
    meta.setValue('extras', []);
    setInvalid(null);
  }, [op, form, meta]);

  const valuesChangeRef = useRef(onValuesChange);
  valuesChangeRef.current = onValuesChange;
  useEffect(() => {
    const emit = () => {
      const extras = (meta.getValues('extras') ?? []).filter((e) => e.name.trim() !== '');
      valuesChangeRef.current?.({
        operationPath: op.path,
        values: Object.fromEntries(Object.entries(form.getValues()).map(([k, v]) => [k, v ?? ''])),
        ...(extras.length > 0 ? { extras: extras.map((e) => ({ name: e.name, value: e.value })) } : {}),
      });
    };
    emit();
    const a = form.watch(emit);
    const b = meta.watch(emit);
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  }, [op, form, meta]);

  const outcome = mutation.data;
  return (
    <article className="wb" aria-labelledby="op-title">
      <OperationHeader op={op} context={context} />
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
          <OperationForm
            op={op}
            register={form.register}
            control={form.control}
            meta={meta}
            profileLogin={profileLogin}
            getPreview={getPreview}
            onFill={onFill}
            onClear={onClear}
          />
          <div className="wb-send-bar">
            <button
              type="submit"
              className="ui-btn ui-btn-primary"
              disabled={mutation.isPending || !context}
              aria-keyshortcuts="Control+Enter Meta+Enter"
            >
              {mutation.isPending ? 'Sending…' : 'Send'}
            </button>
            <span className="wb-hint">
              Ctrl/⌘+Enter · to <strong>{context?.target.name ?? 'no target'}</strong>
              {context?.target.kind === 'production' ? ' (production)' : ''}
            </span>
            {invalid ? (
              <div className="wb-invalid" role="alert">
                {invalid.length} parameter{invalid.length === 1 ? '' : 's'} need
                {invalid.length === 1 ? 's' : ''} attention
                {invalid.length > 0
                  ? `: ${invalid.slice(0, 4).join(', ')}${invalid.length > 4 ? '…' : ''}`
                  : ''}
                .{' '}
                <button type="button" className="ui-btn ui-btn-small" onClick={() => void requestSend(true)}>
                  Send anyway
                </button>
              </div>
            ) : null}
            {mutation.isError ? (
              <p className="wb-error" role="alert">
                {mutation.error.message}
              </p>
            ) : null}
          </div>
        </form>
        <div className="wb-col-panes">
          {outcome ? (
            <AnswerView
              op={op}
              outcome={outcome}
              context={context}
              onExchange={report}
              onNavigate={onNavigate}
            />
          ) : null}
          <LivePanes
            op={op}
            fieldsControl={form.control}
            metaControl={meta.control}
            context={context}
            draftNonce={draftNonce}
            previewRef={previewRef}
          />
          <CallbacksPanel controlKey={context?.credentials.controlKey} />
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
