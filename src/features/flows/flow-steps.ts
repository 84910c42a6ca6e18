import { flowOperation, sendStep } from './flow-send.ts';
import type { StepHost } from './flow-run-types.ts';
import type { CustomerStep, MethodStep, RequestStep } from './flow-types.ts';
import { textOf } from './flow-vars.ts';

/** Sends the step's request and saves what the next steps need; returns a warning, or ''. */
export async function runRequestStep(
  host: StepHost,
  step: RequestStep,
  signal: AbortSignal,
): Promise<string> {
  const op = flowOperation(step.operation);
  const values = host.fill(step.values);
  const { json } = await sendStep(host, step.id, op, values, signal);
  host.save(step.save, json);
  const warnings: string[] = [];
  for (const [field, want] of Object.entries(step.hope ?? {})) {
    const got = textOf(json[field]);
    if (got !== want) warnings.push(`${field} is ${got ?? 'missing'}, not ${want}`);
  }
  if (warnings.length > 0) {
    const text = `${step.title}: ${warnings.join('; ')}.`;
    host.push({ kind: 'note', text, tone: 'warn' });
    return text;
  }
  return '';
}

export async function runMethodStep(host: StepHost, step: MethodStep, signal: AbortSignal): Promise<void> {
  const url = host.fill({ url: step.url }).url!;
  await host.deps.loadMethodUrl(url, signal);
  host.push({ kind: 'note', text: '3DS Method URL loaded in a hidden frame.', tone: 'info' });
}

/** Shows the issuer page to open and waits for the customer's return to the inbox. */
export async function runCustomerStep(
  host: StepHost,
  step: CustomerStep,
  index: number,
  signal: AbortSignal,
): Promise<void> {
  const filled = host.fill({ url: step.url, order: step.clientOrderId });
  const target = filled.url!;
  const clientOrderId = filled.order!;
  host.setStep(index, 'waiting', 'Waiting for the customer to come back from the issuer page…');
  host.set({
    phase: 'waiting-customer',
    customer: { url: target, title: step.title, returns: step.returns },
    message: `Waiting for the customer: open the issuer page and enter the password.`,
  });
  const back = await host.waitForReturn(clientOrderId, step.returns, signal);
  host.push({
    kind: 'customer',
    text: `Customer returned to redirect_url with ${step.returns}.`,
    at: Date.parse(back.receivedAt) || host.deps.clock(),
  });
  host.save(step.save, back.query);
  host.set({ phase: 'running', customer: null });
}
