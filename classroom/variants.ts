import { createHash, createHmac } from 'node:crypto';
import { findOperation } from '../src/catalog/index.ts';
import { resolveControlTerms } from '../src/core/control/control-terms.ts';
import type { MistakeId } from '../src/diagnose/index.ts';
import type { CaptureMistake, Exercise, VariantSpec } from './exercise-schema.ts';

export { CAPTURE_MISTAKES, type CaptureMistake } from './exercise-schema.ts';

/*
 * Per-trainee variants: the values an exercise declares as varying (its file's `variants`), drawn
 * from a seed per classroom, trainee and exercise, so a neighbour's answer is wrong for you. Drawn
 * again identically after a restart (the classroom's seed is kept in its data folder).
 */

/** The merchant of generated captures: not a trainee's, so a capture signs nothing of theirs. */
export const TEACHING_LOGIN = 'teacher-shop';
export const TEACHING_CONTROL_KEY = 'TEACH-0000-1111-2222-3333';

export interface Variant {
  /** The amount the exercise asks for, as the trainee sees it (two decimals). */
  amount?: string;
  currency?: string;
  /** This trainee's broken capture, its mistake and the control key it was signed with. */
  capture?: { text: string; mistake: MistakeId; controlKey: string };
}

/** A deterministic stream of numbers from HMAC-SHA256(seed, trainee:exercise:counter). */
class Draw {
  private n = 0;
  constructor(
    private readonly seed: string,
    private readonly label: string,
  ) {}

  /** An integer in [0, bound). */
  int(bound: number): number {
    this.n += 1;
    const h = createHmac('sha256', this.seed).update(`${this.label}:${this.n}`).digest();
    return h.readUInt32BE(0) % bound;
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
}

const minor = (amount: string) => {
  const [w, f] = amount.split('.');
  return Number(w) * 100 + Number(f);
};
const major = (m: number) => `${Math.floor(m / 100)}.${String(m % 100).padStart(2, '0')}`;

function drawAmount(d: Draw, spec: { min: string; max: string; step?: string | undefined }): string {
  const lo = minor(spec.min);
  const step = spec.step ? minor(spec.step) : 1;
  const count = Math.floor((minor(spec.max) - lo) / step) + 1;
  return major(lo + d.int(count) * step);
}

/** A control-signed request with the mistake made on purpose, as a raw HTTP capture. */
export function brokenCapture(
  operation: string,
  mistake: CaptureMistake,
  values: { endpointId: string; clientOrderId: string; orderId: string; amount: string; currency: string },
): string {
  const op = findOperation(operation);
  if (!op?.formula) throw new Error(`${operation} is not signed with control`);
  const body = [
    { name: 'login', value: TEACHING_LOGIN },
    { name: 'client_orderid', value: values.clientOrderId },
    { name: 'orderid', value: values.orderId },
    { name: 'amount', value: values.amount },
    { name: 'currency', value: values.currency },
  ];
  let terms = resolveControlTerms(op.formula, {
    login: TEACHING_LOGIN,
    endpoint: { kind: 'endpoint', id: values.endpointId },
    body,
  }).map((t) => t.value);
  const formula = op.formula;
  if (mistake === 'amount-major-units')
    terms = terms.map((v, i) => {
      const t = formula[i];
      return t?.kind === 'field' && t.minorUnits ? values.amount : v;
    });
  if (mistake === 'field-missing-from-formula') {
    // The currency left out of the concatenation (a field the formula signs).
    const at = formula.findIndex((t) => t.kind === 'field' && t.name === 'currency');
    terms = terms.filter((_, i) => i !== (at === -1 ? terms.length - 1 : at));
  }
  let control = createHash('sha1')
    .update(terms.join('') + TEACHING_CONTROL_KEY)
    .digest('hex');
  if (mistake === 'uppercase-hex') control = control.toUpperCase();
  const text = [...body, { name: 'control', value: control }]
    .map((p) => `${p.name}=${encodeURIComponent(p.value)}`)
    .join('&');
  return [
    `POST /paynet/api/${operation}/${values.endpointId} HTTP/1.1`,
    'Host: sandbox.example.com',
    'Content-Type: application/x-www-form-urlencoded',
    'Accept: application/vnd.pay+json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    '',
    text,
  ].join('\r\n');
}

/** The variant of one exercise for one trainee; undefined when the exercise declares none. */
export function drawVariant(seed: string, traineeId: string, ex: Exercise): Variant | undefined {
  const spec: VariantSpec | undefined = ex.variants;
  if (!spec) return undefined;
  const d = new Draw(seed, `${traineeId}:${ex.id}`);
  const v: Variant = {};
  if (spec.amount) {
    v.amount = drawAmount(d, spec.amount);
    if (spec.amount.currencies) v.currency = d.pick(spec.amount.currencies);
  }
  if (spec.capture) {
    const mistake = d.pick(spec.capture.mistakes);
    const amount = major(100 + d.int(49_900));
    v.capture = {
      mistake,
      controlKey: TEACHING_CONTROL_KEY,
      text: brokenCapture(spec.capture.operation, mistake, {
        endpointId: String(4000 + d.int(6000)),
        clientOrderId: `inv-${100 + d.int(900)}`,
        orderId: String(5_000_000 + d.int(1_000_000)),
        amount,
        currency: d.pick(['USD', 'EUR', 'GBP']),
      }),
    };
  }
  return v;
}

/** An exercise's text with the trainee's values: `{amount}`, `{currency}`. */
export function fillText(
  text: string,
  v: Variant | undefined,
  fallback: { amount?: string; currency?: string },
): string {
  return text
    .replaceAll('{amount}', v?.amount ?? fallback.amount ?? '{amount}')
    .replaceAll('{currency}', v?.currency ?? fallback.currency ?? '{currency}');
}
