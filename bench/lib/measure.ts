/**
 * A small timer for the bench sections. Sub-millisecond work is timed in batches (one sample =
 * `batch` calls in a row, divided by `batch`), so clock resolution never dominates; slow work runs
 * one call per sample under a time budget. Results are per call: median, p95, min.
 */
import { performance } from 'node:perf_hooks';

export interface MeasureOptions {
  /** A sample should last at least this long; the batch grows until it does. Default 20 ms. */
  minSampleMs?: number;
  /** Samples to take at most. Default 25. */
  samples?: number;
  /** Samples to take at least, even over budget. Default 5. */
  minSamples?: number;
  /** Stop sampling after this much time (calibration excluded). Default 1,500 ms. */
  budgetMs?: number;
}

export interface Measurement {
  name: string;
  /** Milliseconds per call. */
  median: number;
  p95: number;
  min: number;
  batch: number;
  samples: number;
}

async function timeBatch(fn: () => unknown, batch: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) await fn();
  return performance.now() - t0;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Times `fn` (sync or async; async calls are awaited one after the other). */
export async function measure(
  name: string,
  fn: () => unknown,
  options: MeasureOptions = {},
): Promise<Measurement> {
  const { minSampleMs = 20, samples = 25, minSamples = 5, budgetMs = 1500 } = options;
  // Warm up and calibrate: double the batch until one batch lasts minSampleMs.
  let batch = 1;
  let elapsed = await timeBatch(fn, batch);
  while (elapsed < minSampleMs && batch < 1 << 20) {
    batch =
      elapsed <= 0
        ? batch * 8
        : Math.min(batch * 8, Math.max(batch * 2, Math.ceil((batch * minSampleMs) / elapsed)));
    elapsed = await timeBatch(fn, batch);
  }
  const perCall: number[] = [];
  const start = performance.now();
  while (perCall.length < samples && (perCall.length < minSamples || performance.now() - start < budgetMs)) {
    perCall.push((await timeBatch(fn, batch)) / batch);
  }
  const sorted = [...perCall].sort((a, b) => a - b);
  return {
    name,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0]!,
    batch,
    samples: sorted.length,
  };
}

/** `12.3 µs`, `1.05 ms`, `224 ms`. */
export function formatMs(ms: number): string {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toPrecision(3)} µs`;
  if (ms < 100) return `${ms.toPrecision(3)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export interface TableRow {
  /** What is measured (the first column); repeated labels are shown once. */
  label: string;
  m: Measurement;
  /** The baseline measured in the same run; the ratio column is this row's median over the baseline's. */
  baseline?: Measurement;
}

/** A plain-text table: label, implementation, median, p95, calls/s, ratio vs baseline. */
export function formatTable(rows: readonly TableRow[]): string {
  const head = ['', 'implementation', 'median', 'p95', 'calls/s', 'ratio', 'batch×samples'];
  let last = '';
  const body = rows.map((r) => {
    const label = r.label === last ? '' : r.label;
    last = r.label;
    const ratio = r.baseline
      ? r.baseline === r.m
        ? '1.00× (base)'
        : `${(r.m.median / r.baseline.median).toFixed(2)}×`
      : '';
    return [
      label,
      r.m.name,
      formatMs(r.m.median),
      formatMs(r.m.p95),
      Math.round(1000 / r.m.median).toLocaleString('en-US'),
      ratio,
      `${r.m.batch}×${r.m.samples}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
