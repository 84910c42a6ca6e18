import { OPERATIONS, type Operation } from '../catalog/index.ts';
import {
  escapeHtml,
  firstFormHtml,
  inertButtons,
  placeHolding,
} from '../features/console/form/first-form-markup.ts';
import { FIRST_FORM_ID } from '../features/console/form/first-form-ids.ts';
import { groupOperations, navPathNote } from './catalog-search.ts';
import { opHref } from './routes.ts';
import { SECTIONS } from './sections.ts';

/**
 * A pre-rendered operation page's body (scripts/prerender-ops.ts): the first form inside the
 * app's own frame (top bar, the profile bar's reserved place, the operations list, the request
 * tools), so the form starts where the app draws it and does not move when the app takes over
 * (issue 29 §6: it moved about 370 px). Links are real links and work before the app has loaded;
 * what only the app can answer (the tools, the theme, the commands) is held in place, inert.
 */
export function firstFormPageHtml(op: Operation): string {
  const sections = SECTIONS.map(
    (s) =>
      `<li><a href="${s.to}"${s.kinds.includes('op') ? ' aria-current="page"' : ''}>${escapeHtml(s.label)}</a></li>`,
  ).join('');
  const top =
    `<header class="app-top"><a class="app-brand" href="/">pay-console</a>` +
    `<nav aria-label="Sections"><ul class="app-links">${sections}</ul></nav><span class="app-spacer"></span>` +
    `<div aria-hidden="true" inert style="display:contents">${inertButtons(['Commands'], 'app-commands')}` +
    `<label class="app-theme">Theme <select tabindex="-1"><option>System</option></select></label></div></header>`;
  const groups = groupOperations(OPERATIONS).map(
    (g) =>
      `<div role="group" class="nav-group" aria-labelledby="ff-nav-${g.group}"><h2 id="ff-nav-${g.group}">${escapeHtml(g.title)}</h2><ul>${g.ops
        .map(
          (o) =>
            `<li><a href="${escapeHtml(opHref(o.path))}"${o.path === op.path ? ' aria-current="page"' : ''}>${escapeHtml(o.title)}<span class="nav-path">${escapeHtml(o.path + navPathNote(o))}</span></a></li>`,
        )
        .join('')}</ul></div>`,
  );
  const nav =
    `<nav class="nav" aria-label="Operations" data-open="false">` +
    placeHolding('nav-hold', inertButtons(['Show operations'], 'ui-btn nav-toggle')) +
    `<div class="nav-list">` +
    placeHolding(
      'nav-hold',
      `<input class="nav-search" type="search" tabindex="-1" placeholder="Search: title, path, id"><p class="nav-count">${OPERATIONS.length} operations</p>`,
    ) +
    `${groups.join('')}</div></nav>`;
  const tools = placeHolding(
    'ex-tools',
    `<div class="ex-toolbar">${inertButtons(
      ['Export code', 'Verify a callback', 'Share link', 'Import', 'Save request', 'Teach this'],
      'ui-btn ui-btn-small',
    )}</div>`,
  );
  return (
    `<div id="${FIRST_FORM_ID}" class="ff">${top}` +
    `<section class="pf-bar" aria-label="Merchant credentials" aria-busy="true"></section>` +
    `<div class="app-body">${nav}<main class="app-main">${tools}${firstFormHtml(op)}</main></div></div>`
  );
}
