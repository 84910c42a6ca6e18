/**
 * Preloaded into a server process by the bench (`tsx --import ./bench/lib/loop-monitor.ts …`):
 * measures event-loop delay with perf_hooks. On SIGUSR2 it writes the delay since the last
 * SIGUSR2 (p50, p99, max, in ms, the timer resolution subtracted) to $BENCH_LOOP_STATS and starts over.
 * Beside it, to tell the causes of a stall apart: the garbage collector's pauses in the same window,
 * the gaps over 10 ms with whether the process was busy across them, and the share of one core the
 * process got (all its threads: well below 1 under load means the OS ran something else).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_STATS;
if (file) {
  const resolutionMs = 1;
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  // perf_hooks' GC kinds: which collector a pause belongs to tells what to tune.
  const KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
  const freshGc = () => ({
    count: 0,
    over5: 0,
    maxMs: 0,
    totalMs: 0,
    longest: {} as Record<string, { count: number; over5: number; maxMs: number }>,
  });
  let gc = freshGc();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.totalMs += e.duration;
      if (e.duration > 5) gc.over5++;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
      const kind =
        KINDS[(e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other';
      const k = (gc.longest[kind] ??= { count: 0, over5: 0, maxMs: 0 });
      k.count++;
      if (e.duration > 5) k.over5++;
      k.maxMs = Math.max(k.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  // Every gap over 10 ms between 2 ms ticks, with the process's CPU time across it: a gap the
  // process spent busy (CPU at least half the gap) is work in it; an idle one is the OS (or I/O).
  let gaps = { over10: 0, busy: 0, idle: 0 };
  let last = { wall: performance.now(), cpu: process.cpuUsage() };
  setInterval(() => {
    const now = { wall: performance.now(), cpu: process.cpuUsage() };
    const gap = now.wall - last.wall - 2;
    if (gap > 10) {
      gaps.over10++;
      const cpuMs = (now.cpu.user - last.cpu.user + now.cpu.system - last.cpu.system) / 1000;
      if (cpuMs >= gap / 2) gaps.busy++;
      else gaps.idle++;
    }
    last = now;
  }, 2).unref();
  let since = { wall: performance.now(), cpu: process.cpuUsage() };
  let round = 0;
  const ms = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
  process.on('SIGUSR2', () => {
    round++;
    const cpu = process.cpuUsage(since.cpu);
    const wall = performance.now() - since.wall;
    // Written whole, then renamed: the bench never reads half a file.
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({
        round,
        samples: h.count,
        p50: ms(h.percentile(50)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
        gc,
        gaps,
        cpuShare: (cpu.user + cpu.system) / 1000 / wall,
      }),
    );
    renameSync(`${file}.tmp`, file);
    h.reset();
    gc = freshGc();
    gaps = { over10: 0, busy: 0, idle: 0 };
    since = { wall: performance.now(), cpu: process.cpuUsage() };
  });
}
