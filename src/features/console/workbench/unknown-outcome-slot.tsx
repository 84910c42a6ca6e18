import { lazy, Suspense } from 'react';
import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import type { WorkbenchSession } from './workbench-session.ts';
import { useSlice } from './use-slice.ts';

// Only a send that may have reached the gateway without an answer shows it.
const UnknownOutcomeView = lazy(() =>
  import('../answer/unknown-outcome-view.tsx').then((m) => ({ default: m.UnknownOutcomeView })),
);

const ids = new WeakMap<object, number>();
let next = 1;
/** A key per outcome: a new unknown outcome is a new view, with its own status check. */
function keyOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = next++));
  return id;
}

/** The answer area's "Outcome unknown" (the model's decision, `send-certainty.ts`) for the last send. */
export function UnknownOutcomeSlot(props: {
  session: WorkbenchSession;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  const { session } = props;
  const sending = useSlice(session, (s) => s.send);
  const unknown = sending.pending
    ? null
    : sending.error
      ? sending.unknown
      : (sending.outcome?.unknown ?? null);
  if (!unknown) return null;
  return (
    <Suspense fallback={<p role="status">Outcome unknown…</p>}>
      <UnknownOutcomeView
        key={keyOf(unknown)}
        unknown={unknown}
        detail={sending.error?.message}
        context={props.context}
        place={props.place}
        runtime={props.runtime}
        onExchange={props.onExchange}
        onResend={() => void session.resend()}
        onNavigate={props.onNavigate}
        resending={sending.pending}
      />
    </Suspense>
  );
}
