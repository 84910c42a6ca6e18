/** What a command may touch of the outside world: output streams and the environment. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    env: process.env,
  };
}

/** Cells wider than this do not widen their column: a long value runs on instead of pushing every row. */
const MAX_ALIGNED_WIDTH = 40;

/**
 * A plain-text table: a header row, then one line per row, columns separated by two spaces.
 * Trailing empty cells are dropped so lines carry no trailing spaces.
 */
export function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  indent = '  ',
): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) =>
    Math.min(
      MAX_ALIGNED_WIDTH,
      Math.max(...all.map((r) => (r[i] ?? '').length).filter((w) => w <= MAX_ALIGNED_WIDTH), 0),
    ),
  );
  return all
    .map((r) => {
      const cells = header.map((_, i) => r[i] ?? '');
      while (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
      return indent + cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
    })
    .join('\n');
}

/** `label  value` lines with the labels aligned. */
export function fields(pairs: ReadonlyArray<readonly [string, string]>, indent = ''): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`).join('\n');
}

export function heading(title: string): string {
  return `\n${title}\n${'-'.repeat(title.length)}\n`;
}

/** Shows invisible trouble in a value: an empty string, leading/trailing spaces, control characters. */
export function showValue(value: string): string {
  if (value === '') return '""';
  // eslint-disable-next-line no-control-regex
  return /^\s|\s$|[\x00-\x1f\x7f]/.test(value) ? JSON.stringify(value) : value;
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
