import Editor, { loader } from '@monaco-editor/react';
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

export function MonacoView({ value, language, label, lines, dark }: MonacoViewProps) {
  return (
    <div className="ui-monaco" aria-label={label} role="group">
      <Editor
        height={lines * 19 + 12}
        value={value}
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
        }}
      />
    </div>
  );
}
