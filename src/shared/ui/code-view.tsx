import { useEffect, useState, type ComponentType } from 'react';
import type { MonacoViewProps } from './monaco-view.tsx';
import { useDarkTheme } from './use-dark.ts';

type Loaded = ComponentType<MonacoViewProps>;
let loaded: Loaded | null = null;
let loading: Promise<Loaded> | null = null;
const waiting = new Set<(c: Loaded) => void>();

/** Loads the Monaco chunk once (idle time or on demand); later calls share the same promise. */
export function loadMonaco(): Promise<Loaded> {
  loading ??= import('./monaco-view.tsx').then((m) => {
    loaded = m.MonacoView;
    for (const w of waiting) w(m.MonacoView);
    waiting.clear();
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
}

/**
 * Read-only code, coloured by Monaco once its chunk has loaded; a plain `<pre>` until then, so
 * Monaco never delays the first form.
 */
export function CodeView({ value, language, label, maxLines = 24 }: CodeViewProps) {
  const [Editor, setEditor] = useState<Loaded | null>(() => loaded);
  const dark = useDarkTheme();
  useEffect(() => {
    if (Editor) return;
    const w = (c: Loaded) => setEditor(() => c);
    waiting.add(w);
    scheduleIdleLoad();
    return () => void waiting.delete(w);
  }, [Editor]);
  const lines = Math.min(maxLines, Math.max(3, value.split('\n').length + 1));
  if (Editor) return <Editor value={value} language={language} label={label} lines={lines} dark={dark} />;
  return (
    <pre
      className="ui-code"
      role="group"
      aria-label={label}
      tabIndex={0}
      onFocus={() => void loadMonaco().catch(() => undefined)}
      onPointerEnter={() => void loadMonaco().catch(() => undefined)}
    >
      {value}
    </pre>
  );
}
