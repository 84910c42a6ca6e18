import { findOperation, type Operation } from '../../../catalog/index.ts';
import { ConfirmDialog } from '../../../ui/index.ts';
import { OperationHeader } from './operation-header.tsx';
import { openedKey } from './opened-key.ts';
import { useSlice } from './use-slice.ts';
import { useWorkbenchForms } from './use-workbench-forms.ts';
import { useWorkbenchSession } from './use-workbench-session.ts';
import { WorkbenchForm } from './workbench-form.tsx';
import { WorkbenchPanes } from './workbench-panes.tsx';
import type { WorkbenchProps } from './workbench-props.ts';
import type { WorkbenchSession } from './workbench-session.ts';
import '../console.css';

export type { WorkbenchNavigation, WorkbenchProps } from './workbench-props.ts';

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

/**
 * The page around a {@link WorkbenchSession}: the session owns draft → build → send → answer; this
 * only lays out its views and hands it the form's changes and the user's intents.
 */
function OperationWorkbench(props: WorkbenchProps & { op: Operation }) {
  const { op, context, place, runtime, onNavigate } = props;
  const forms = useWorkbenchForms(op, props.draft, place);
  const { wb, report, timeoutInput } = useWorkbenchSession(op, props, forms);
  const endpoint = useSlice(wb, (s) => s.endpoint);
  return (
    <article className="wb" aria-labelledby="op-title">
      <OperationHeader
        op={op}
        context={context}
        opened={endpoint}
        onUseProfileEndpoint={() => wb.useProfileEndpoint()}
      />
      <div className="wb-grid">
        <WorkbenchForm {...{ op, wb, forms, context, timeoutInput, onNavigate }} />
        <WorkbenchPanes {...{ op, wb, context, place, runtime, onNavigate }} onExchange={report} />
      </div>
      <ProductionConfirm op={op} wb={wb} context={props.context} />
    </article>
  );
}

/** A money-moving request to a production target waits for a yes. */
function ProductionConfirm({
  op,
  wb,
  context,
}: Pick<WorkbenchProps, 'context'> & { op: Operation; wb: WorkbenchSession }) {
  const confirming = useSlice(wb, (s) => s.confirming);
  return (
    <ConfirmDialog
      open={confirming}
      title="Send to production?"
      confirmLabel="Send to production"
      onConfirm={() => void wb.send()}
      onCancel={() => wb.cancelConfirmation()}
    >
      <p>
        <strong>{op.title}</strong> moves real money and the target <strong>{context?.target.name}</strong> is
        a production gateway ({context?.target.baseUrl}).
      </p>
    </ConfirmDialog>
  );
}
