import type { MouseEvent } from 'react';
import type { RequestDraft, SigningRuntime } from '../../model/index.ts';
import type { Exchange } from '../../model/exchange.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { findFlow, FLOWS } from './flow-definitions.ts';
import { FlowRunner } from './flow-runner.tsx';
import './flows.css';

export interface FlowsPageProps {
  /** The flow to run, or null for the list of flows. */
  flowId: string | null;
  context: SigningContext | null;
  /** The app's crypto port, nonce source and clock. */
  runtime: SigningRuntime;
  /** Opens a step's request in the workbench. */
  onOpen: (draft: RequestDraft) => void;
  /** Every request a flow sends, for history. */
  onExchange?: (ex: Exchange) => void | Promise<void>;
  /** In-app navigation to `/flows` or `/flows/<id>`. */
  onNavigate: (path: string) => void;
}

export function flowHref(id: string | null): string {
  return id ? `/flows/${id}` : '/flows';
}

function follow(e: MouseEvent<HTMLAnchorElement>, to: string, onNavigate: (path: string) => void): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  onNavigate(to);
}

function FlowList({ onNavigate }: { onNavigate: (path: string) => void }) {
  return (
    <section className="flow-list" aria-labelledby="flows-title">
      <h1 id="flows-title">Guided flows</h1>
      <p>
        Multi-step scenarios against the sandbox. Values from one answer (order ids, card reference, 3-D
        Secure results) fill the next request; each request is signed with the active profile and drawn on a
        timeline with the status changes and callbacks it causes.
      </p>
      <ul className="flow-cards">
        {FLOWS.map((f) => (
          <li key={f.id} className="flow-card">
            <h2>
              <a href={flowHref(f.id)} onClick={(e) => follow(e, flowHref(f.id), onNavigate)}>
                {f.title}
              </a>
            </h2>
            <p>{f.summary}</p>
            <p className="flow-card-steps">{f.steps.length} steps</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FlowsPage({ flowId, context, runtime, onOpen, onExchange, onNavigate }: FlowsPageProps) {
  if (flowId === null) return <FlowList onNavigate={onNavigate} />;
  const flow = findFlow(flowId);
  return (
    <div className="flow-page">
      <nav aria-label="Flows">
        <a href={flowHref(null)} onClick={(e) => follow(e, flowHref(null), onNavigate)}>
          ← All guided flows
        </a>
      </nav>
      {flow ? (
        <FlowRunner
          key={flow.id}
          flow={flow}
          context={context}
          runtime={runtime}
          onOpen={onOpen}
          onExchange={onExchange}
        />
      ) : (
        <section>
          <h1>Unknown flow</h1>
          <p>
            No guided flow is called <code>{flowId}</code>. Pick one from the list of guided flows.
          </p>
        </section>
      )}
    </div>
  );
}
