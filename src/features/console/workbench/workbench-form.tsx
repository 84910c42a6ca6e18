import { lazy, Suspense, useCallback, useMemo, type RefObject } from 'react';
import type { Operation } from '../../../catalog/index.ts';
import { emptyDraft, formFromDraft } from '../../../model/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { OperationForm } from '../form/operation-form.tsx';
import { SendBar } from './send-bar.tsx';
import { useSlice } from './use-slice.ts';
import { useTestDataFill } from './use-test-data-fill.ts';
import type { WorkbenchForms } from './use-workbench-forms.ts';
import type { WorkbenchNavigation } from './workbench-props.ts';
import type { WorkbenchSession } from './workbench-session.ts';

// Only a request opened without some of its values (masked when kept) names them above the form.
const WithheldValues = lazy(() =>
  import('../form/withheld-values.tsx').then((m) => ({ default: m.WithheldValues })),
);

/** The form column: the values the opened request came without, the fields, and the send bar. */
export function WorkbenchForm({
  op,
  wb,
  forms: { form, meta },
  context,
  timeoutInput,
  onNavigate,
}: {
  op: Operation;
  wb: WorkbenchSession;
  forms: WorkbenchForms;
  context: SigningContext | null;
  timeoutInput: RefObject<HTMLInputElement | null>;
  onNavigate: (to: WorkbenchNavigation) => void;
}) {
  const withheld = useSlice(wb, (s) => s.withheld);
  const refusals = useSlice(wb, (s) => s.refusals);
  const neededFields = useMemo(() => Object.keys(withheld ?? {}), [withheld]);
  const onFill = useTestDataFill(op, form, wb);
  const onUseIds = useCallback(
    (ids: Record<string, string>) => {
      for (const [name, value] of Object.entries(ids))
        form.setValue(name, value, { shouldDirty: true, shouldValidate: true });
    },
    [form],
  );
  const onClear = useCallback(() => {
    form.reset(formFromDraft(op, emptyDraft(op.path), wb.where().place).values);
    meta.setValue('extras', []);
    wb.cleared();
  }, [op, form, meta, wb]);
  return (
    <form
      className="wb-col-form"
      aria-label={`${op.title} parameters`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void wb.requestSend();
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
        profileLogin={context?.credentials.login ?? ''}
        getPreview={wb.preview}
        onFill={onFill}
        onClear={onClear}
        onUseIds={onUseIds}
        needed={neededFields}
      />
      <SendBar
        context={context}
        session={wb}
        timeoutInput={timeoutInput}
        control={form.control}
        onNavigate={onNavigate}
      />
    </form>
  );
}
