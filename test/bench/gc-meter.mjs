// Preloaded into each server the benchmark starts for load runs (`node --import`): appends each pause of V8's
// collections (PerformanceObserver's `gc` entries, main thread, the same figure as `--trace-gc`'s) to
// `$BENCH_GC_DIR/gc-<pid>`, one line each, `<kind> <µs>` (kind 1 is a scavenge), every 50 ms while there are new
// ones, for load.ts to read before and after a run. Every pause rather than a sum: the scavenges of one run do much
// the same work, so the run's fast ones tell what a pause costs when V8's helper threads get a core. A file rather
// than a pipe: the server's own output stays as it is, and nothing is asked of it.
import { appendFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const dir = process.env.BENCH_GC_DIR;
if (dir) {
  const file = `${dir}/gc-${process.pid}`;
  let pending = '';
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pending += `${entry.detail?.kind ?? 0} ${Math.round(entry.duration * 1000)}\n`;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    if (pending === '') return;
    appendFileSync(file, pending);
    pending = '';
  }, 50).unref();
}
