import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { Operation } from '../../../catalog/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { browserTransport } from '../../../browser/proxy-client.ts';
import { variablesStore } from '../../../browser/variables-store.ts';
import type { FieldValues } from '../form/meta.ts';
import { revealField } from '../form/reveal-field.ts';
import { loadTimeoutSeconds, saveTimeoutSeconds } from '../send/send-timeout.ts';
import type { WorkbenchForms } from './use-workbench-forms.ts';
import type { WorkbenchProps } from './workbench-props.ts';
import { WorkbenchSession } from './workbench-session.ts';

const loadLifecycle = () => import('../send/send-lifecycle.ts');
// The model's exchange (prepare → send → read → record) loads with the first Send.
const loadExchange = () => import('../../../model/exchange.ts');

/**
 * The workbench's session with the browser's ports, fed the form's changes (inside their input
 * events), the active profile, Ctrl/⌘+Enter; the send in flight stops when the operation is left.
 */
export function useWorkbenchSession(op: Operation, props: WorkbenchProps, forms: WorkbenchForms) {
  const { context, place, runtime } = props;
  const { form, meta, opened, validation } = forms;
  const timeoutInput = useRef<HTMLInputElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const report = useCallback((ex: Exchange) => {
    void Promise.resolve(latest.current.onExchange(ex)).catch(() => undefined);
  }, []);
  const [wb] = useState(
    () =>
      new WorkbenchSession(
        op,
        {
          runtime,
          variables: variablesStore,
          prepare: (d, env, options) => loadExchange().then((m) => m.prepareExchange(d, env, options)),
          lifecycle: (seconds) => loadLifecycle().then((m) => new m.SendLifecycle(seconds)),
          transport: (ctx) => browserTransport(ctx.target),
          recorded: report,
          draftChanged: (d) => latest.current.onDraftChange?.(d),
          timeouts: { load: loadTimeoutSeconds, save: saveTimeoutSeconds },
          check: async () =>
            (await form.trigger()) ? [] : (await validation).invalidNames(form.getValues()),
          focusField: (name) => {
            revealField(name);
            form.setFocus(name);
          },
          focusTimeout: () => timeoutInput.current?.focus(),
        },
        { context, place },
        { endpoint: opened.endpoint, withheld: opened.withheld, sendOnOpen: props.sendOnOpen },
      ),
  );
  useEffect(() => {
    const changed = () => wb.formChanged({ values: form.getValues(), meta: meta.getValues() });
    changed();
    const a = form.watch(changed);
    const b = meta.watch(changed);
    return () => {
      a.unsubscribe();
      b.unsubscribe();
    };
  }, [wb, form, meta]);
  useEffect(() => void wb.profileChanged({ context, place }), [wb, context, place]);
  // Leaving the operation drops its send in flight (the proxy then drops the upstream call).
  useEffect(() => () => wb.cancel(), [wb]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.defaultPrevented) {
        e.preventDefault();
        void wb.requestSend();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [wb]);
  useProfileLogin(op, form, context);
  return { wb, report, timeoutInput };
}

/** A login field still empty or holding the previous profile's login takes the new profile's. */
function useProfileLogin(op: Operation, form: UseFormReturn<FieldValues>, context: SigningContext | null) {
  const profileLogin = context?.credentials.login ?? '';
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
}
