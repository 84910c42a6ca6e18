/**
 * A Vite build plugin: one pre-rendered page per catalog operation, `ops/<path>.html` beside
 * index.html, which the console's server answers for `/ops/<path>` (proxy/static-console.ts). Each
 * is index.html with the operation's form already in it, inside the app's frame (src/app/first-form-frame.ts)
 * and, instead of the app's entry, the small first-form module (src/app/first-form.ts) that signs
 * as the user types and loads the app after the first paint. The app's chunks are not preloaded
 * from the HTML: on a slow link they would compete with the first form.
 */
import type { Plugin, Rolldown } from 'vite';
import { OPERATIONS } from '../src/catalog/index.ts';
import { FIRST_FORM_DATA_ID, type FirstFormData } from '../src/features/console/form/first-form-ids.ts';
import { firstFormPageHtml } from '../src/app/first-form-frame.ts';
import { firstFormFormula } from '../src/features/console/form/first-form-markup.ts';

/** The first-form module, a second build input beside index.html. */
export const FIRST_FORM_ENTRY = 'src/app/first-form.ts';

/** The chunk's static imports, transitively, as absolute URLs (what the entry needs before it runs). */
function staticClosure(bundle: Rolldown.OutputBundle, chunk: Rolldown.OutputChunk): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const c = bundle[file];
    if (c?.type === 'chunk') c.imports.forEach(visit);
  };
  chunk.imports.forEach(visit);
  return [...seen].map((f) => `/${f}`);
}

/** `</script>` cannot end the JSON early, and the data holds no HTML. */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The first load's stylesheets written into the page: a render-blocking request fewer before the
 * first form can paint (the CSP allows inline styles, `style-src 'unsafe-inline'`). The app then
 * finds its styles already in the page.
 */
function inlineStylesheets(bundle: Rolldown.OutputBundle, head: string): string {
  return head.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (link, file: string) => {
    const css = bundle[file];
    if (css?.type !== 'asset') return link;
    const text = String(css.source);
    return text.includes('</style') ? link : `<style>${text}</style>`;
  });
}

export function prerenderOps(): Plugin {
  return {
    name: 'pay-console:prerender-ops',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
      const app = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith('/index.html'));
      const first = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith(FIRST_FORM_ENTRY));
      if (!app || !first) this.error('prerender-ops: the app entry or the first-form entry is missing.');
      const source = String(html.source);
      const appScript = `<script type="module" crossorigin src="/${app.fileName}"></script>`;
      if (!source.includes(appScript))
        this.error(`prerender-ops: index.html does not load /${app.fileName}.`);
      const head = source
        .replace(/^\s*<link rel="modulepreload"[^>]*>\n?/gm, '')
        .replace(
          appScript,
          [
            `<script type="module" crossorigin src="/${first.fileName}"></script>`,
            ...staticClosure(bundle, first).map((f) => `<link rel="modulepreload" crossorigin href="${f}">`),
          ].join('\n    '),
        );
      const page0 = inlineStylesheets(bundle, head)
        // The targets are the app's to ask for: on the first form's page the preload only competed
        // with the demo merchant's answer the first signature waits for.
        .replace(/^\s*<link rel="preload" href="\/proxy\/targets"[^>]*>\n?/m, '');
      const preload = staticClosure(bundle, app);
      for (const op of OPERATIONS) {
        const data: FirstFormData = {
          operation: op.path,
          formula: firstFormFormula(op),
          app: { entry: `/${app.fileName}`, preload },
        };
        const page = page0.replace(
          '<div id="root"></div>',
          `<div id="root"></div>\n    ${firstFormPageHtml(op)}\n    <script type="application/json" id="${FIRST_FORM_DATA_ID}">${jsonInHtml(data)}</script>`,
        );
        if (page === page0) this.error('prerender-ops: index.html has no <div id="root"></div>.');
        this.emitFile({ type: 'asset', fileName: `ops/${op.path}.html`, source: page });
      }
    },
  };
}
