/**
 * A Vite build plugin: the app's first load in one chunk instead of about twenty. Rolldown splits
 * modules by which entries reach them, lazy pages included, so every module a lazy page shares
 * with the first page became a small chunk of its own, and gzip compresses each chunk apart
 * (docs/performance.md, "First-load JavaScript"). The modules the first-form entry loads keep
 * their own chunk: that entry must stay a few kilobytes with no package in it.
 */
import type { Plugin } from 'vite';
import { FIRST_FORM_ENTRY } from './prerender-ops.ts';

export function firstLoadChunks(): Plugin {
  /** The first-form entry's static closure, known once the module graph is complete. */
  const firstForm = new Set<string>();
  let entry = '';
  return {
    name: 'pay-console:first-load-chunks',
    apply: 'build',
    buildEnd() {
      firstForm.clear();
      entry = [...this.getModuleIds()].find((id) => id.endsWith(`/${FIRST_FORM_ENTRY}`)) ?? '';
      const visit = (id: string) => {
        if (firstForm.has(id)) return;
        firstForm.add(id);
        this.getModuleInfo(id)?.importedIds.forEach(visit);
      };
      if (entry) visit(entry);
    },
    outputOptions(options) {
      // A build that does not split (a worker, say) stays as it is.
      if (options.codeSplitting === false) return null;
      return {
        ...options,
        codeSplitting: {
          groups: [
            // Higher priority: the app's group below would otherwise take them as its dependencies.
            { name: 'first-form-shared', test: (id) => firstForm.has(id) && id !== entry, priority: 2 },
            { name: 'app', tags: ['$initial'], test: (id) => !firstForm.has(id), priority: 1 },
          ],
        },
      };
    },
  };
}
