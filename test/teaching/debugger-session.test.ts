/**
 * The debugger page's state (src/features/debugger/debugger-session.ts), without React: the
 * profile's keys taken and let go, the other keys edited in place, only the latest Diagnose
 * answering, and Clear dropping one still running. The diagnoses are the real `runDiagnosis` over
 * the corpus; a spec only holds an answer back to order them.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webCryptoPort } from '../../src/core/index.ts';
import { importSigningKey } from '../../src/core/keys/key-containers.ts';
import {
  DebuggerSession,
  detectedFormatText,
  fieldError,
} from '../../src/features/debugger/debugger-session.ts';
import {
  EMPTY_FORM,
  runDiagnosis,
  type DebuggerForm,
  type DebuggerRun,
  type RunOptions,
} from '../../src/features/debugger/run-diagnosis.ts';
import type { SigningContext } from '../../src/model/signing-context.ts';

const crypto = webCryptoPort();
const CORPUS = resolve(import.meta.dirname, '../corpus');
const read = (f: string) => readFileSync(join(CORPUS, f), 'utf8');
const clock = () => Date.UTC(2026, 0, 1, 0, 0, 30);
const CONTROL_KEY = 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B';

function profile(over: Partial<SigningContext['credentials']> = {}, group = false): SigningContext {
  return {
    profileId: 'p',
    profileName: 'corpus',
    target: { name: 'local', baseUrl: 'http://127.0.0.1:1/sandbox/paynet', kind: 'local' },
    endpoint: { kind: group ? 'group' : 'endpoint', id: group ? '77' : '4411' },
    credentials: { login: 'corpus-shop', controlKey: CONTROL_KEY, ...over },
  };
}

/** runDiagnosis whose answers wait until the spec lets them go, in the order it chooses. */
function heldDiagnosis() {
  const held: Array<{ form: DebuggerForm; release: () => void }> = [];
  const diagnose = (form: DebuggerForm, o: RunOptions): Promise<DebuggerRun> =>
    new Promise<void>((release) => held.push({ form, release: () => release() })).then(() =>
      runDiagnosis(form, o),
    );
  return { held, diagnose };
}

describe('DebuggerSession', () => {
  it('starts with the linked capture, or empty', () => {
    expect(new DebuggerSession({ crypto, clock }).getSnapshot()).toEqual({
      form: EMPTY_FORM,
      revealKey: false,
      useProfileKey: false,
      run: null,
      busy: false,
    });
    const linked = new DebuggerSession({ crypto, clock }, 'login=a');
    expect(linked.getSnapshot().form).toEqual({ ...EMPTY_FORM, capture: 'login=a' });
  });

  it('takes the profile’s login, control key and endpoint, and its private key only while asked to', async () => {
    const session = new DebuggerSession({ crypto, clock });
    let calls = 0;
    session.subscribe(() => calls++);
    session.useProfile(profile());
    expect(calls).toBe(1);
    expect(session.getSnapshot()).toMatchObject({
      form: { login: 'corpus-shop', controlKey: CONTROL_KEY, endpointId: '4411', endpointGroupId: '' },
      useProfileKey: false,
    });
    session.useProfile(profile({ controlKey: undefined }, true));
    expect(session.getSnapshot().form).toMatchObject({ controlKey: '', endpointGroupId: '77' });

    const privateKey = (await importSigningKey(read('keys/merchant-a-private-pkcs8.pem'), crypto)).key;
    const rsa = profile({ privateKey });
    session.set('capture', read('cases/ok-rsa-payout-check.har'));
    session.useProfile(rsa);
    expect(session.getSnapshot().useProfileKey).toBe(true);
    await session.diagnose(rsa);
    const used = session.getSnapshot().run;
    expect(used?.ok && used.diagnosis.verdict).toBe('ok');

    session.stopUsingProfileKey();
    await session.diagnose(rsa);
    const notUsed = session.getSnapshot().run;
    expect(notUsed?.ok && notUsed.diagnosis.verdict).toBe('cannot-check');
  });

  it('adds, edits and removes the other keys to try, each in its place', () => {
    const session = new DebuggerSession({ crypto, clock });
    session.addAlternative();
    session.addAlternative();
    session.addAlternative();
    session.editAlternative(1, { label: 'production' });
    session.editAlternative(1, { controlKey: 'K2' });
    session.editAlternative(2, { controlKey: 'K3' });
    session.removeAlternative(0);
    expect(session.getSnapshot().form.alternatives).toEqual([
      { label: 'production', controlKey: 'K2' },
      { label: '', controlKey: 'K3' },
    ]);
  });

  it('shows only the latest Diagnose, and is busy until it answers', async () => {
    const { held, diagnose } = heldDiagnosis();
    const session = new DebuggerSession({ crypto, clock, diagnose });
    session.set('capture', 'hello');
    const first = session.diagnose(null);
    session.set('capture', read('cases/ok-control-sale.http'));
    session.set('controlKey', CONTROL_KEY);
    const second = session.diagnose(null);
    expect(session.getSnapshot()).toMatchObject({ busy: true, run: null });
    expect(held.map((h) => h.form.capture === 'hello')).toEqual([true, false]);

    held[1]!.release();
    await second;
    const latest = session.getSnapshot();
    expect(latest.busy).toBe(false);
    expect(latest.run?.ok && latest.run.diagnosis.verdict).toBe('ok');

    held[0]!.release();
    await first;
    expect(session.getSnapshot()).toBe(latest);
  });

  it('Clear empties the boxes, forgets the profile’s key and drops a Diagnose still running', async () => {
    const { held, diagnose } = heldDiagnosis();
    const session = new DebuggerSession({ crypto, clock, diagnose });
    session.set('capture', 'hello');
    session.setRevealKey(true);
    const running = session.diagnose(null);
    session.clear();
    expect(session.getSnapshot()).toEqual({
      form: EMPTY_FORM,
      revealKey: false,
      useProfileKey: false,
      run: null,
      busy: false,
    });
    held[0]!.release();
    await running;
    expect(session.getSnapshot().run).toBeNull();
  });

  it('puts an error under the box it belongs to', async () => {
    const session = new DebuggerSession({ crypto, clock });
    session.set('capture', read('cases/ok-control-sale.http'));
    session.set('now', 'soon');
    await session.diagnose(null);
    const { run } = session.getSnapshot();
    expect(fieldError(run, 'now')).toMatch(/"soon" is not a time/);
    expect(fieldError(run, 'capture')).toBeUndefined();
    expect(fieldError(null, 'now')).toBeUndefined();
  });
});

describe('the "Detected format" line', () => {
  it('says what was chosen, detected, not pasted or not recognised', () => {
    expect(detectedFormatText({ capture: '', format: 'auto' })).toBe('Nothing pasted yet');
    expect(detectedFormatText({ capture: '  ', format: 'curl' })).toBe('Read as a curl command (chosen)');
    expect(detectedFormatText({ capture: read('cases/ok-control-sale.http'), format: 'auto' })).toBe(
      'Detected: raw HTTP request',
    );
    expect(detectedFormatText({ capture: 'hello', format: 'auto' })).toBe(
      'Not recognised: paste raw HTTP, a curl command, a HAR entry or a key=value log line',
    );
  });
});
