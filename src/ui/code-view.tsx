import { memo, useEffect, useState, type ComponentType } from 'react';
import { Signal } from '../core/store.ts';
import { tokenizeHttpLine } from './http-tokens.ts';
import type { MonacoViewProps } from './monaco-view.tsx';
import { useDarkTheme } from './use-dark.ts';

type Loaded = ComponentType<MonacoViewProps>;
let loaded: Loaded | null = null;
let loading: Promise<Loaded> | null = null;
const arrived = new Signal();

/** Loads the Monaco chunk once (idle time or on demand); later calls share the same promise. */
export function loadMonaco(): Promise<Loaded> {
  loading ??= import('./monaco-view.tsx').then((m) => {
    loaded = m.MonacoView;
    arrived.fire();
    return m.MonacoView;
  });
  return loading;
}

let idleScheduled = false;
function scheduleIdleLoad(): void {
  if (idleScheduled || loaded) return;
  idleScheduled = true;
  const run = () => void loadMonaco().catch(() => undefined);
  if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 4000 });
  else setTimeout(run, 1500);
}

export interface CodeViewProps {
  value: string;
  language: 'http' | 'json' | 'plaintext';
  label: string;
  maxLines?: number;
  /**
   * When Monaco replaces the plain text: `idle` (when the page is idle, or on focus or hover) or
   * `on-demand` (only when asked, with the "Open in the editor" button). A live pane that changes
   * on every keystroke uses `on-demand`: Monaco's update costs more than the plain text's.
   */
  editor?: 'idle' | 'on-demand';
}

/** One line of raw HTTP, coloured; memoised, so a keystroke re-renders only the lines it changed. */
const HttpLine = memo(function HttpLine({ line, last }: { line: string; last: boolean }) {
  return (
    <>
      {tokenizeHttpLine(line).map((t, i) =>
        t.kind ? (
          <span key={i} className={`ui-http-${t.kind}`}>
            {t.text}
          </span>
        ) : (
          t.text
        ),
      )}
      {last ? null : '\n'}
    </>
  );
});

function PlainText({ value, language }: { value: string; language: CodeViewProps['language'] }) {
  if (language !== 'http') return value;
  const lines = value.split('\n');
  return lines.map((line, i) => <HttpLine key={i} line={line} last={i === lines.length - 1} />);
}

/**
 * Read-only code, coloured by Monaco once its chunk has loaded; a plain `<pre>` until then (raw
 * HTTP coloured by the same rules), so Monaco never delays the first form.
 */
export function CodeView({ value, language, label, maxLines = 24, editor = 'idle' }: CodeViewProps) {
  const [Editor, setEditor] = useState<Loaded | null>(() => (editor === 'idle' ? loaded : null));
  const [wanted, setWanted] = useState(editor === 'idle');
  const dark = useDarkTheme();
  useEffect(() => {
    if (Editor || !wanted) return;
    const take = () => {
      const c = loaded;
      if (c) setEditor(() => c);
    };
    if (loaded) return take();
    const off = arrived.subscribe(take);
    if (editor === 'idle') scheduleIdleLoad();
    else void loadMonaco().catch(() => undefined);
    return off;
  }, [Editor, wanted, editor]);
  const lines = Math.min(maxLines, Math.max(3, value.split('\n').length + 1));
  if (Editor) return <Editor value={value} language={language} label={label} lines={lines} dark={dark} />;
  const upgrade = editor === 'idle' ? () => void loadMonaco().catch(() => undefined) : undefined;
  return (
    <>
      <pre
        className="ui-code"
        role="group"
        aria-label={label}
        tabIndex={0}
        onFocus={upgrade}
        onPointerEnter={upgrade}
      >
        <PlainText value={value} language={language} />
      </pre>
      {editor === 'on-demand' ? (
        <button type="button" className="ui-open-editor" disabled={wanted} onClick={() => setWanted(true)}>
          {wanted ? 'Opening the editor…' : 'Open in the editor'}
        </button>
      ) : null}
    </>
  );
}
