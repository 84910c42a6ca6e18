import { ExportError } from '../errors.ts';
import { renderBash } from './bash-snippet.ts';
import { renderCsharp } from './csharp-snippet.ts';
import { renderJava } from './java-snippet.ts';
import { renderNode } from './node-snippet.ts';
import { renderPhp } from './php-snippet.ts';
import { renderPython } from './python-snippet.ts';
import type { RequestDraft } from '../../model/index.ts';
import {
  planSnippet,
  SNIPPET_LANGUAGES,
  type SnippetTarget,
  type SnippetLanguage,
  type SnippetPlan,
} from './snippet-plan.ts';

export interface SnippetLanguageInfo {
  language: SnippetLanguage;
  label: string;
  /** The file name the snippet's own run line uses. */
  fileName: (operationPath: string) => string;
  /** Syntax-highlighting id (Monaco / highlight.js). */
  highlight: string;
  render: (plan: SnippetPlan) => string;
}

const slug = (path: string, sep: string) => path.replace(/\W+/g, sep);

export const SNIPPET_LANGUAGE_INFO: Record<SnippetLanguage, SnippetLanguageInfo> = {
  bash: {
    language: 'bash',
    label: 'bash (curl + openssl)',
    fileName: (p) => `${slug(p, '-')}.sh`,
    highlight: 'shell',
    render: renderBash,
  },
  node: {
    language: 'node',
    label: 'Node.js (fetch + node:crypto)',
    fileName: (p) => `${slug(p, '-')}.mjs`,
    highlight: 'javascript',
    render: renderNode,
  },
  python: {
    language: 'python',
    label: 'Python 3 (standard library)',
    fileName: (p) => `${slug(p, '_')}.py`,
    highlight: 'python',
    render: renderPython,
  },
  php: {
    language: 'php',
    label: 'PHP',
    fileName: (p) => `${slug(p, '-')}.php`,
    highlight: 'php',
    render: renderPhp,
  },
  java: {
    language: 'java',
    label: 'Java 17',
    fileName: () => 'PayRequest.java',
    highlight: 'java',
    render: renderJava,
  },
  csharp: {
    language: 'csharp',
    label: 'C# (.NET 6+)',
    fileName: () => 'Program.cs',
    highlight: 'csharp',
    render: renderCsharp,
  },
};

export interface Snippet {
  language: SnippetLanguage;
  fileName: string;
  code: string;
  /** True only when the caller asked for secrets and gave them: the text then holds a secret. */
  containsSecrets: boolean;
}

/**
 * Code that signs the request at run time (never a frozen signature) in one language: fresh nonce
 * and timestamp, `control` or the OAuth signature computed when it runs, secrets read from
 * MERCHANT_CONTROL_KEY / MERCHANT_PRIVATE_KEY_FILE unless the target's `includeSecrets` is set.
 * @throws what planSnippet throws, or ExportError SNIPPET_LANGUAGE.
 */
export function renderSnippet(
  language: SnippetLanguage,
  draft: RequestDraft,
  target: SnippetTarget,
): Snippet {
  const info = (SNIPPET_LANGUAGE_INFO as Partial<Record<string, SnippetLanguageInfo>>)[language];
  if (!info) {
    throw new ExportError(
      'SNIPPET_LANGUAGE',
      `No snippet language "${String(language)}": pick one of ${SNIPPET_LANGUAGES.join(', ')}.`,
    );
  }
  const plan = planSnippet(draft, target);
  return {
    language,
    fileName: info.fileName(plan.operation.path),
    code: info.render(plan),
    containsSecrets: plan.embedded !== null && Object.keys(plan.embedded).length > 0,
  };
}
