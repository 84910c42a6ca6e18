import { lazy, Suspense } from 'react';
import type { Operation } from '../../../catalog/index.ts';
import type { Place, SigningRuntime } from '../../../model/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import { useIdle } from '../../../ui/index.ts';
import { LivePanes } from '../panes/live-panes.tsx';
import { SaveFromAnswer, VariablesPanel } from '../variables/lazy-views.ts';
import { useSlice } from './use-slice.ts';
import type { WorkbenchNavigation } from './workbench-props.ts';
import type { WorkbenchSession } from './workbench-session.ts';

// What only matters after a send (the answer, polling, follow-ups, callbacks) loads after the form.
const AnswerView = lazy(() => import('../answer/answer-view.tsx').then((m) => ({ default: m.AnswerView })));
// Only a send shows an outcome, known or not: the slot loads with the first one.
const UnknownOutcomeSlot = lazy(() =>
  import('./unknown-outcome-slot.tsx').then((m) => ({ default: m.UnknownOutcomeSlot })),
);
const CallbacksPanel = lazy(() =>
  import('../callbacks/callbacks-panel.tsx').then((m) => ({ default: m.CallbacksPanel })),
);

export interface PanesProps {
  op: Operation;
  wb: WorkbenchSession;
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
  onExchange: (ex: Exchange) => void;
  onNavigate: (to: WorkbenchNavigation) => void;
}

/** The panes column: the last send's outcome or answer, the live request, variables and callbacks. */
export function WorkbenchPanes(props: PanesProps) {
  const { wb, context, runtime } = props;
  // The callback inbox is not needed for the first signature: it loads once the page is idle.
  const afterFirstForm = useIdle();
  const answer = useSlice(wb, (s) => s.send.outcome?.interpreted.json);
  const sent = useSlice(wb, (s) => s.send.outcome !== null || s.send.error !== null);
  return (
    <div className="wb-col-panes">
      {sent ? (
        <Suspense fallback={null}>
          <UnknownOutcomeSlot session={wb} {...props} />
        </Suspense>
      ) : null}
      <Answer {...props} />
      <LiveRequest wb={wb} context={context} />
      {afterFirstForm ? (
        <Suspense fallback={null}>
          <VariablesPanel context={context} />
          <CallbacksPanel
            controlKey={context?.credentials.controlKey}
            crypto={runtime.crypto}
            login={context?.credentials.login}
            answer={answer}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The answer of the last send, marked stale once the form leaves its request. */
function Answer({ op, wb, context, place, runtime, onExchange, onNavigate }: PanesProps) {
  const send = useSlice(wb, (s) => s.send);
  const stale = useSlice(wb, (s) => s.stale);
  const outcome = send.outcome;
  if (!outcome || (send.error && send.unknown)) return null;
  return (
    <Suspense fallback={<p role="status">Loading the answer…</p>}>
      <AnswerView
        op={op}
        outcome={outcome}
        context={context}
        place={place}
        runtime={runtime}
        onExchange={onExchange}
        onNavigate={onNavigate}
        stale={stale}
      />
      <SaveFromAnswer outcome={outcome} context={context} />
    </Suspense>
  );
}

/** The session's live build, the one part of the page a keystroke renders. */
function LiveRequest({ wb, context }: { wb: WorkbenchSession; context: SigningContext | null }) {
  return <LivePanes live={useSlice(wb, (s) => s.live)} context={context} />;
}
