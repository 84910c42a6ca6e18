import { type Clock, type CryptoPort } from '../../core/index.ts';
import { importVerifyingKey } from '../../core/keys/key-containers.ts';
import { diagnose, type AlternativeKey, type Diagnosis, type KeyConsumer } from '../../diagnose/index.ts';
import {
  CAPTURE_FORMAT_LABEL,
  detectCaptureFormat,
  parseCapture,
  type CaptureFormat,
  type ParsedCapture,
} from '../../capture/index.ts';
import { draftFromCapture } from '../../model/import-draft.ts';
import type { Place, RequestDraft } from '../../model/index.ts';
import { errorText } from '../../core/errors.ts';

export { CAPTURE_FORMAT_LABEL, detectCaptureFormat, type CaptureFormat };

/** What the debugger's boxes hold. Secrets stay in this object, in memory, for the page's life. */
export interface DebuggerForm {
  capture: string;
  format: CaptureFormat | 'auto';
  login: string;
  controlKey: string;
  publicKeyPem: string;
  privateKeyPem: string;
  keyConsumer: KeyConsumer | '';
  alternatives: Array<{ label: string; controlKey: string }>;
  endpointId: string;
  endpointGroupId: string;
  /** Other orders' client_orderid, separated by spaces or commas: tried in place of the one sent. */
  otherOrderIds: string;
  now: string;
  expectedBaseString: string;
}

export const EMPTY_FORM: DebuggerForm = {
  capture: '',
  format: 'auto',
  login: '',
  controlKey: '',
  publicKeyPem: '',
  privateKeyPem: '',
  keyConsumer: '',
  alternatives: [],
  endpointId: '',
  endpointGroupId: '',
  otherOrderIds: '',
  now: '',
  expectedBaseString: '',
};

export type DebuggerRun =
  | { ok: true; parsed: ParsedCapture; diagnosis: Diagnosis; now: number }
  | { ok: false; field: 'capture' | 'publicKeyPem' | 'now' | 'alternatives'; message: string };

/**
 * Reads "now" for the timestamp check: empty is the clock's time; digits are epoch seconds (10)
 * or milliseconds (13); anything else a date and time.
 */
export function parseNow(text: string, clock: Clock): number | string {
  const t = text.trim();
  if (t === '') return clock();
  if (/^\d{13}$/.test(t)) return Number(t);
  if (/^\d{9,10}$/.test(t)) return Number(t) * 1000;
  const ms = Date.parse(t);
  if (Number.isNaN(ms))
    return `"${t.slice(0, 40)}" is not a time: write a date and time such as 2026-01-04T12:00:00Z, or an epoch time in seconds or milliseconds. Leave it empty for the current time.`;
  return ms;
}

export interface RunOptions {
  crypto: CryptoPort;
  clock: Clock;
  /** The active profile's RSA private key (not extractable), when the user chose to use it. */
  profilePrivateKey?: CryptoKey;
}

/** Parses the capture and the keys, then runs the core's debugger on them. Nothing leaves the page. */
export async function runDiagnosis(form: DebuggerForm, o: RunOptions): Promise<DebuggerRun> {
  let parsed: ParsedCapture;
  try {
    parsed = parseCapture(form.capture, form.format === 'auto' ? {} : { format: form.format });
  } catch (e) {
    return { ok: false, field: 'capture', message: errorText(e) };
  }
  const now = parseNow(form.now, o.clock);
  if (typeof now === 'string') return { ok: false, field: 'now', message: now };
  let publicKey: CryptoKey | undefined;
  if (form.publicKeyPem.trim() !== '') {
    try {
      publicKey = (await importVerifyingKey(form.publicKeyPem, o.crypto)).key;
    } catch (e) {
      return { ok: false, field: 'publicKeyPem', message: `The public key cannot be read: ${errorText(e)}` };
    }
  }
  const alternativeKeys: AlternativeKey[] = [];
  for (const [i, a] of form.alternatives.entries()) {
    if (a.controlKey === '') continue;
    alternativeKeys.push({ label: a.label.trim() || `other key ${i + 1}`, controlKey: a.controlKey });
  }
  const endpointId = form.endpointId.trim();
  const endpointGroupId = form.endpointGroupId.trim();
  const clientOrderIds = form.otherOrderIds.split(/[\s,]+/).filter((x) => x !== '');
  try {
    const diagnosis = await diagnose({
      capture: parsed.request,
      crypto: o.crypto,
      headersComplete: parsed.headersComplete,
      urlSchemeKnown: parsed.schemeKnown,
      ...(parsed.maskedExport ? { maskedExport: true } : {}),
      now,
      ...(form.login.trim() !== '' ? { login: form.login.trim() } : {}),
      ...(form.controlKey !== '' ? { controlKey: form.controlKey } : {}),
      ...(publicKey ? { publicKey } : {}),
      ...(o.profilePrivateKey ? { privateKey: o.profilePrivateKey } : {}),
      ...(form.privateKeyPem.trim() !== '' ? { privateKeyText: form.privateKeyPem } : {}),
      ...(form.keyConsumer ? { keyConsumer: form.keyConsumer } : {}),
      ...(alternativeKeys.length > 0 ? { alternativeKeys } : {}),
      ...(endpointId || endpointGroupId || clientOrderIds.length > 0
        ? {
            knownIds: {
              ...(endpointId ? { endpointId } : {}),
              ...(endpointGroupId ? { endpointGroupId } : {}),
              ...(clientOrderIds.length > 0 ? { clientOrderIds } : {}),
            },
          }
        : {}),
      ...(form.expectedBaseString.trim() !== '' ? { expectedBaseString: form.expectedBaseString } : {}),
    });
    return { ok: true, parsed, diagnosis, now };
  } catch (e) {
    return { ok: false, field: 'capture', message: errorText(e) };
  }
}

/**
 * The capture as a draft for the workbench: its values, scheme and endpoint, and for OAuth its nonce
 * and timestamp pinned, so that the workbench shows the captured signature (given the same key).
 */
export function draftOf(run: { parsed: ParsedCapture }, place: Place): RequestDraft {
  // The diagnosis identified the capture with the same `identifyCapture`: one answer, not two.
  return draftFromCapture(run.parsed.request, { place }).draft;
}
