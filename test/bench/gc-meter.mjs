// Preloaded into each server the benchmark starts for load runs (`node --import`): sums the pauses of V8's
// collections (PerformanceObserver's `gc` entries, main thread) and writes the running total, in microseconds, to
// `$BENCH_GC_DIR/gc-<pid>` every 50 ms while it changes, for load.ts to read before and after a run. A file rather
// than a pipe: the server's own output stays as it is, and nothing is asked of it.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const dir = process.env.BENCH_GC_DIR;
if (dir) {
  const file = `${dir}/gc-${process.pid}`;
  let total = 0;
  let written = -1;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) total += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    if (total === written) return;
    written = total;
    writeFileSync(file, String(Math.round(total * 1000)));
  }, 50).unref();
}
