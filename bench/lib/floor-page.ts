/**
 * The floor: the v2/sale form written by hand, as small as the job allows, so that the console is
 * measured against the leanest page that does the same job (issue 29 §6). What it has: the same
 * labelled inputs as the console's form (read from the catalog, browser fingerprint fields aside:
 * 27 since `notify_url`), the signature line, and one inline classic script at the end of the body
 * that computes `control` with Web Crypto on every input event and once at load. What it has not: no framework, no build,
 * no external file of any kind (no stylesheet, font, icon request or module), no style at all, no
 * module script (an inline module waits for the parser to finish and goes through the module
 * loader; the classic script runs as soon as it is parsed, the form being above it), no profile or
 * credentials request (the endpoint id and control key are written into the page). The bench
 * serves it from the peers' process (plain `node:http`, no compression, `no-store`) and times it
 * like the console, inside the page.
 */
import { findOperation } from '../../src/catalog/index.ts';

export const FLOOR_PATH = '/floor/v2/sale';
/** Fixed demo credentials: the floor signs the same concatenation the console would. */
export const FLOOR_ENDPOINT_ID = '1001';
export const FLOOR_CONTROL_KEY = 'floor-control-key-0123456789';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The floor page's HTML: one label and one input per field, the signature line, one inline script. */
export function floorPageHtml(): string {
  const op = findOperation('v2/sale');
  if (!op) throw new Error('The catalog has no v2/sale.');
  const fields = op.fields.filter((f) => !f.name.startsWith('browser'));
  const rows = fields
    .map(
      (f) =>
        `<p><label for="f-${f.name}">${f.name}</label> <input id="f-${f.name}" name="${f.name}" autocomplete="off" spellcheck="false"></p>`,
    )
    .join('\n');
  const terms = JSON.stringify(op.formula ?? []);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>v2/sale by hand (the floor)</title></head>
<body><main><h1>${escapeHtml(op.title)}</h1>
<form id="sale" autocomplete="off">
${rows}
</form>
<p>control: <code aria-label="Signature" id="sig"></code></p>
</main>
<script>
const terms = ${terms};
const endpointId = ${JSON.stringify(FLOOR_ENDPOINT_ID)};
const key = ${JSON.stringify(FLOOR_CONTROL_KEY)};
const form = document.getElementById('sale');
const out = document.getElementById('sig');
const utf8 = new TextEncoder();
const minor = (a) => {
  const m = /^(\\d+)(?:\\.(\\d{1,2}))?$/.exec(a.trim());
  return m ? String(BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'))) : null;
};
let seq = 0;
async function sign() {
  const mine = ++seq;
  let text = '';
  for (const t of terms) {
    if (t.kind === 'endpointId') { text += endpointId; continue; }
    const v = form.elements[t.name].value;
    if (v !== '' && t.minorUnits) { const m = minor(v); if (m === null) { out.textContent = '(not signed)'; return; } text += m; }
    else text += v;
  }
  const d = new Uint8Array(await crypto.subtle.digest('SHA-1', utf8.encode(text + key)));
  if (mine !== seq) return;
  out.textContent = Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
}
form.addEventListener('input', sign);
sign();
</script></body></html>`;
}
