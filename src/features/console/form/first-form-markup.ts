import { placeholderOf, type FieldSpec, type Operation } from '../../../catalog/index.ts';
import type { ControlTerm } from '../../../core/index.ts';
import { fieldDetails, fieldOptions, INPUT_MODE } from './field-text.ts';
import { operationFacts } from '../workbench/operation-facts.ts';
import { OPEN_UP_TO } from './optional-group.ts';
import { hasCardCvv, OUTCOMES } from './test-data.ts';

/**
 * The first form of an operation page as HTML, written at build time (scripts/prerender-ops.ts):
 * the same labels, names, ids and ARIA wiring as `FieldRow` and `OperationForm`, and the signing
 * pane's signature line, so the page is a usable form before the app has loaded. The app takes
 * over what was typed into it (src/app/first-form-takeover.ts). No live buttons: nothing here would
 * answer a click before the app does; what the app draws around the fields is held in place by
 * inert copies, so the first field does not move when the app arrives.
 */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function attrs(list: Record<string, string | undefined>): string {
  return Object.entries(list)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('');
}

function fieldRowHtml(spec: FieldSpec): string {
  const id = `f-${spec.name}`;
  const common = {
    id,
    'aria-describedby': `${id}-title ${id}-meta ${id}-err`,
    'aria-required': String(spec.required),
    name: spec.name,
  };
  const options = fieldOptions(spec);
  const control = options
    ? `<select${attrs(common)}><option value="">(not sent)</option>${options
        .map((o) => `<option${attrs({ value: o })}>${escapeHtml(o)}</option>`)
        .join('')}</select>`
    : `<input${attrs({
        ...common,
        type: 'text',
        inputmode: INPUT_MODE[spec.type],
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: placeholderOf(spec) ?? undefined,
      })}>`;
  const prov =
    spec.provenance !== 'description'
      ? `<span class="wb-prov wb-prov-${spec.provenance}">${
          spec.provenance === 'gateway-notes' ? 'from gateway notes' : 'assumed'
        }</span>`
      : '';
  const help = spec.help ? `<span class="wb-field-help"> ${escapeHtml(spec.help)}</span>` : '';
  return (
    `<div class="wb-field"><div class="wb-field-head"><label for="${id}" class="wb-field-name">${escapeHtml(spec.name)}</label>` +
    `<span class="wb-field-title" id="${id}-title">${escapeHtml(spec.title)}</span></div>${control}` +
    `<p class="wb-field-meta" id="${id}-meta">${escapeHtml(fieldDetails(spec))}${
      spec.fromProfile ? ' · filled from the profile' : ''
    }${prov}${help}</p><p class="wb-field-error" id="${id}-err"></p></div>`
  );
}

/** The formula the first-form module may sign: scheme C over plain fields (no profile or place value). */
export function firstFormFormula(op: Operation): ControlTerm[] | null {
  if (op.scheme !== 'control' || !op.formula) return null;
  const plain = op.formula.every((t) => {
    if (t.kind !== 'field') return t.kind === 'endpointId';
    const spec = op.fields.find((f) => f.name === t.name);
    return spec !== undefined && !spec.fromProfile && !spec.place;
  });
  return plain ? [...op.formula] : null;
}

/** An element the app will draw in this place, drawn alike but inert: it holds the place only. */
export const placeHolding = (cls: string, inner: string) =>
  `<div class="${cls}" aria-hidden="true" inert>${inner}</div>`;

const inertButtons = (labels: readonly string[], cls = 'ui-btn') =>
  labels.map((l) => `<button type="button" class="${cls}" tabindex="-1">${escapeHtml(l)}</button>`).join('');

/** The operation's facts under its title, as the app's header lists them (operation-facts.ts). */
function factsHtml(op: Operation): string {
  const items = operationFacts(op).map(
    ([before, className, code, after, source, label]) =>
      `<li${className ? ` class="${className}"` : ''}>${escapeHtml(before)}${
        code !== undefined ? `<code>${escapeHtml(code)}</code>` : ''
      }${escapeHtml(after ?? '')}${
        source ? `<span class="wb-prov wb-prov-${source}">${escapeHtml(label ?? '')}</span>` : ''
      }</li>`,
  );
  return `<ul class="wb-tags" aria-label="Operation facts">${items.join('')}</ul>`;
}

/**
 * The workbench of `op` as the app draws it on arrival: the header (title, address, facts,
 * summary), the test-data box held in place, the form, and the signature line. The app's shell
 * around it is src/app/first-form-frame.ts.
 */
export function firstFormHtml(op: Operation): string {
  const required = op.fields.filter((f) => f.required);
  const optional = op.fields.filter((f) => !f.required);
  const signs = firstFormFormula(op) !== null;
  const cvv = hasCardCvv(op)
    ? `<label>Outcome (CVV) <select tabindex="-1">${OUTCOMES.map(
        (o) => `<option>${escapeHtml(`${o.cvv}: ${o.label}`)}</option>`,
      ).join('')}</select></label>`
    : '';
  return [
    `<article class="wb" aria-labelledby="ff-title">`,
    `<header class="wb-head"><h1 id="ff-title">${escapeHtml(op.title)}</h1>`,
    // The address's base and endpoint id come with the profile, which the app loads.
    `<p class="wb-path"><span class="wb-method">POST</span> <code>{base_url}/api/${escapeHtml(op.path)}/{endpointId}</code></p>`,
    factsHtml(op),
    `<p class="wb-summary">${escapeHtml(op.summary)}</p></header>`,
    `<div class="wb-grid"><form class="wb-col-form" aria-label="${escapeHtml(op.title)} parameters" novalidate>`,
    `<div class="wb-form">`,
    placeHolding('wb-box wb-fill', cvv + inertButtons(['Fill with test data', 'Clear'])),
    required.length > 0
      ? `<fieldset class="wb-fields"><legend>Required parameters</legend>${required.map(fieldRowHtml).join('')}</fieldset>`
      : '',
    optional.length > 0
      ? `<details class="wb-fields"${optional.length <= OPEN_UP_TO ? ' open' : ''}><summary>Optional parameters (${optional.length})</summary>${optional.map(fieldRowHtml).join('')}</details>`
      : '',
    `</div></form>`,
    `<div class="wb-col-panes"><section class="wb-pane" aria-labelledby="ff-pane-sig">`,
    `<h2 id="ff-pane-sig">${op.scheme === 'control' ? 'The control parameter' : 'Signature and Authorization header'}</h2>`,
    `<div class="wb-sig-row"><code class="wb-signature" role="group" aria-label="Signature">${
      signs ? '' : '(signed once the console has loaded)'
    }</code></div>`,
    `<p class="wb-hint" role="status">The console is loading; what you type here is kept.</p>`,
    `</section></div></div></article>`,
  ].join('');
}

export { escapeHtml, inertButtons };
