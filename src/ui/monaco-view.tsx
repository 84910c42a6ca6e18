import Editor, { loader, type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { changedSpan } from './changed-span.ts';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/folding/register.js';
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/contextmenu/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/languages/features/json/register.js';
// The JSON language loads its worker manager lazily, and that module imports every editor
// contribution (code lens, inlay hints, …) with their services. Arriving after the first editor
// created the services, they threw "depends on UNKNOWN service ICodeLensCache" in every later
// editor. Imported here, they register before any editor exists (same chunk, same bytes).
import 'monaco-editor/internal/common/workers.js';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

monaco.languages.register({ id: 'http' });
monaco.languages.setMonarchTokensProvider('http', {
  tokenizer: {
    root: [
      [/^(POST|GET|PUT|DELETE|PATCH|HEAD|OPTIONS)\b/, 'keyword'],
      [/HTTP\/\d(\.\d)?/, 'keyword'],
      [/^[A-Za-z0-9-]+(?=:)/, 'type'],
      [/%[0-9A-Fa-f]{2}/, 'string.escape'],
      [/[&=]/, 'delimiter'],
      [/[^&=%\s]+(?==)/, 'variable'],
    ],
  },
});

loader.config({ monaco });

export interface MonacoViewProps {
  value: string;
  language: string;
  label: string;
  lines: number;
  dark: boolean;
}

type Model = monaco.editor.ITextModel;

/** Replaces only the span of text that changed, so a keystroke re-renders a line or two, not the whole text. */
function applyMinimalEdit(model: Model, next: string): void {
  const prev = model.getValue();
  const span = changedSpan(prev, next);
  if (!span) return;
  const range = monaco.Range.fromPositions(
    model.getPositionAt(span.start),
    model.getPositionAt(span.endPrev),
  );
  model.applyEdits([{ range, text: next.slice(span.start, span.endNext) }]);
}

export function MonacoView({ value, language, label, lines, dark }: MonacoViewProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    const model = editor.getModel();
    if (model) applyMinimalEdit(model, value);
  };
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model) applyMinimalEdit(model, value);
  }, [value]);
  return (
    <div className="ui-monaco" aria-label={label} role="group">
      <Editor
        height={lines * 19 + 12}
        defaultValue={value}
        onMount={onMount}
        language={language}
        theme={dark ? 'vs-dark' : 'vs'}
        loading={<pre className="ui-code">{value}</pre>}
        options={{
          readOnly: true,
          domReadOnly: true,
          ariaLabel: label,
          minimap: { enabled: false },
          lineNumbers: 'off',
          wordWrap: 'on',
          scrollBeyondLastLine: false,
          renderLineHighlight: 'none',
          folding: language === 'json',
          fontSize: 13,
          padding: { top: 6, bottom: 6 },
          automaticLayout: true,
          contextmenu: true,
          scrollbar: { alwaysConsumeMouseWheel: false },
          // Decorations recomputed on every change and of no use in a read-only view.
          occurrencesHighlight: 'off',
          selectionHighlight: false,
          matchBrackets: 'never',
          guides: { indentation: false },
          unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false },
          links: false,
          stickyScroll: { enabled: false },
        }}
      />
    </div>
  );
}
