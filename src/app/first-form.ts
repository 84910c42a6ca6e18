/**
 * The first module of a pre-rendered operation page (scripts/prerender-ops.ts): it signs the
 * `control` of the form already in the HTML as the user types, with the core's own control path
 * and Web Crypto, then loads the app once the first signature is painted. The app takes the typed values over
 * (first-form-takeover.ts). Kept to the core's control functions: no React, no catalog, no zod.
 */
import { computeControl } from '../core/control/sign-control.ts';
import { joinControlTerms, resolveControlTerms } from '../core/control/control-terms.ts';
import { webCryptoPort } from '../core/crypto-port.ts';
import {
  FIRST_FORM_DATA_ID,
  FIRST_FORM_ID,
  type FirstFormData,
} from '../features/console/form/first-form-ids.ts';

const data = JSON.parse(
  document.getElementById(FIRST_FORM_DATA_ID)?.textContent ?? 'null',
) as FirstFormData | null;
const root = document.getElementById(FIRST_FORM_ID);

/**
 * The endpoint id and control key the app's first render will sign with, when that is known
 * without the app: the demo merchant of a first visit, or a stored demo profile. Anything else
 * (a profile of the user's own, a vault, the classroom, an opened draft) is left to the app. A
 * hand check, not zod: this only decides whether to show a signature the app then recomputes.
 */
async function demoCredentials(): Promise<{ endpointId: string; controlKey: string } | null> {
  if (document.querySelector('meta[name="pay-console-mode"]')) return null;
  if (location.hash.length > 1 || (history.state as { draft?: unknown } | null)?.draft) return null;
  let endpointId: string | undefined;
  try {
    if (localStorage.getItem('pay-console.vault') !== null) return null;
    const stored = localStorage.getItem('pay-console.profiles');
    if (stored !== null) {
      const s = JSON.parse(stored) as { activeId?: unknown; profiles?: unknown };
      const list = Array.isArray(s.profiles) ? (s.profiles as Array<Record<string, unknown>>) : [];
      const active = list.find((p) => p.id === s.activeId) ?? list[0];
      if (!active || active.origin !== 'sandbox-demo' || active.endpointKind !== 'endpoint') return null;
      if (typeof active.endpointId !== 'string') return null;
      endpointId = active.endpointId;
    }
  } catch {
    return null;
  }
  // index.html preloads this answer (rel=preload as=fetch); the app asks for it again.
  const res = await fetch('/sandbox/demo-merchant');
  if (!res.ok) return null;
  const demo = (await res.json()) as { controlKey?: unknown; endpointIds?: unknown };
  const first = Array.isArray(demo.endpointIds) ? demo.endpointIds[0] : undefined;
  endpointId ??= typeof first === 'string' || typeof first === 'number' ? String(first) : undefined;
  if (typeof demo.controlKey !== 'string' || demo.controlKey === '' || !endpointId) return null;
  return { endpointId, controlKey: demo.controlKey };
}

/** Signs on every input; the promise settles once the first signature is on screen (or will not be). */
function startSigning(
  form: HTMLFormElement,
  out: HTMLElement,
  formula: NonNullable<FirstFormData['formula']>,
): Promise<void> {
  const crypto = webCryptoPort();
  const credentials = demoCredentials().catch(() => null);
  let seq = 0;
  const sign = async () => {
    const mine = ++seq;
    const creds = await credentials;
    if (!creds || mine !== seq) return;
    // As the app's build: empty values are not sent, so a formula term of one is the empty string.
    const body = [...new FormData(form)]
      .map(([name, value]) => ({ name, value: String(value) }))
      .filter((p) => p.value !== '');
    const terms = resolveControlTerms(formula, {
      login: '',
      endpoint: { kind: 'endpoint', id: creds.endpointId },
      body,
    });
    const text = terms.some((t) => t.error)
      ? '(not signed)'
      : await computeControl(joinControlTerms(terms), creds.controlKey, crypto);
    if (mine === seq && out.isConnected) out.textContent = text;
  };
  form.addEventListener('input', () => void sign());
  form.addEventListener('change', () => void sign());
  return sign().catch(() => undefined);
}

/** The app after the first paint: its chunks as module preloads, then its entry. */
function loadApp(app: FirstFormData['app']) {
  for (const href of app.preload) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ app.entry);
}

if (data && root) {
  const form = root.querySelector('form');
  const out = root.querySelector<HTMLElement>('[aria-label="Signature"]');
  const signed = form && out && data.formula ? startSigning(form, out, data.formula) : Promise.resolve();
  // The app's entry is 130 KB of script to compile and run: started before the first signature is
  // on screen, it held the signature's callback behind it on a fast machine (usable 2.5× the
  // floor). The app follows the first signature and the frame that paints it, or a second at most
  // (a demo-merchant answer that never comes must not keep the app away).
  const atMost = new Promise<void>((resolve) => setTimeout(resolve, 1000));
  void Promise.race([signed, atMost]).then(() =>
    requestAnimationFrame(() => setTimeout(() => loadApp(data.app), 0)),
  );
}
