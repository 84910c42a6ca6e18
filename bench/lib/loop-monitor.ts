/**
 * Preloaded into a server process by the bench (`tsx --import ./bench/lib/loop-monitor.ts …`):
 * measures event-loop delay with perf_hooks. On SIGUSR2 it writes the delay since the last
 * SIGUSR2 (p50, p99, max, in ms, the timer resolution subtracted) to $BENCH_LOOP_STATS and starts over.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_STATS;
if (file) {
  const resolutionMs = 1;
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  let round = 0;
  const ms = (ns: number) => Math.max(0, ns / 1e6 - resolutionMs);
  process.on('SIGUSR2', () => {
    round++;
    // Written whole, then renamed: the bench never reads half a file.
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({
        round,
        samples: h.count,
        p50: ms(h.percentile(50)),
        p99: ms(h.percentile(99)),
        max: ms(h.max),
      }),
    );
    renameSync(`${file}.tmp`, file);
    h.reset();
  });
}
