import { verifyCallback } from '../../core/index.ts';
import { Signal } from '../../core/store.ts';
import { FlowStepError, type ControlCheck, type InboxEvent, type StepHost } from './flow-run-types.ts';

/**
 * The run's side of its inbox: a customer's return (PaRes or cres) wakes the step waiting for it;
 * any other event is a callback, drawn on the timeline and its `control` checked with the profile's key.
 */
export class RunInbox {
  private readonly seen = new Set<number>();
  private returns: InboxEvent[] = [];
  /** Fired when a return arrives: each waiting step looks for its own. */
  private readonly returned = new Signal();

  constructor(private readonly host: Pick<StepHost, 'deps' | 'push' | 'update'>) {}

  /** A Start over: the returns of the run before no longer count; the events seen stay seen. */
  forgetReturns(): void {
    this.returns = [];
  }

  receive(event: InboxEvent): void {
    if (this.seen.has(event.id)) return;
    this.seen.add(event.id);
    const q = event.query;
    const at = Date.parse(event.receivedAt) || this.host.deps.clock();
    if (q.PaRes || q.cres) {
      this.returns.push(event);
      this.returned.fire();
      return;
    }
    const key = this.host.push({
      kind: 'callback',
      at,
      status: q.status ?? '',
      type: q.type ?? '',
      orderid: q.orderid ?? '',
      control: 'checking',
    });
    void this.checkControl(q).then((control) => this.host.update(key, { control }));
  }

  waitForReturn(clientOrderId: string, field: string, signal: AbortSignal): Promise<InboxEvent> {
    const match = () =>
      this.returns.find((e) => e.query[field] && (e.query.client_orderid ?? clientOrderId) === clientOrderId);
    return new Promise((resolve, reject) => {
      let stopWaiting = () => {};
      const check = () => {
        const found = match();
        if (found) {
          stopWaiting();
          resolve(found);
        }
      };
      const abort = () => {
        stopWaiting();
        reject(new FlowStepError('Stopped.'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      stopWaiting = this.returned.subscribe(check);
      check();
    });
  }

  private checkControl(q: Record<string, string>): Promise<ControlCheck> {
    const { deps } = this.host;
    return verifyCallback(q, deps.context()?.credentials.controlKey, deps.crypto);
  }
}
