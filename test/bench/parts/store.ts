// Part `store`: the store's write path alone (store-writes.ts, in a child process each run): µs a put and an update
// of a bulk item, in memory and with a journal. With BENCH_STORE_BEFORE (another checkout of this repository, with
// its node_modules), the same script on that checkout's src/, in alternation, as the baseline.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { median } from '../load.js';
import { log, ROUNDS, root } from '../settings.js';
import type { Row } from '../table.js';

const beforeCheckout = process.env.BENCH_STORE_BEFORE || null;
const script = join(root, 'test', 'bench', 'store-writes.ts');
const MODES = ['memory', 'journal'] as const;
type Mode = (typeof MODES)[number];

interface Writes {
  putUs: number;
  updateUs: number;
}

/** Medians over the rounds, per mode: ours, and the other checkout's where there is one. */
export type Store = Record<Mode, { ours: Writes; before: Writes | null }>;

function measure(checkout: string, mode: Mode): Writes {
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, checkout, mode], {
    cwd: checkout,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Writes;
}

const medians = (runs: Writes[]): Writes => ({
  putUs: median(runs.map((r) => r.putUs)),
  updateUs: median(runs.map((r) => r.updateUs)),
});

export function benchStore(): Store {
  const against = beforeCheckout ? ` in alternation with ${beforeCheckout}` : '';
  log(`store: bulk items put and updated, ${ROUNDS} rounds${against}`);
  const result = {} as Store;
  for (const mode of MODES) {
    const ours: Writes[] = [];
    const before: Writes[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(measure(root, mode));
      if (beforeCheckout) before.push(measure(beforeCheckout, mode));
    }
    result[mode] = { ours: medians(ours), before: beforeCheckout ? medians(before) : null };
  }
  return result;
}

export function storeRows(store: Store): Row[] {
  const us = (value: number | undefined) => (value === undefined ? '' : `${value.toFixed(2)} µs`);
  return MODES.flatMap((mode) =>
    (['putUs', 'updateUs'] as const).map((figure): Row => {
      const { ours, before } = store[mode];
      const write = figure === 'putUs' ? 'put' : 'update';
      const where = mode === 'memory' ? 'in memory' : 'with a journal';
      return [
        `store ${write} of a bulk item, ${where} (µs; baseline: BENCH_STORE_BEFORE's src/, ratio baseline / ours)`,
        us(ours[figure]),
        us(before?.[figure]),
        before ? (before[figure] / ours[figure]).toFixed(2) : '',
        '',
        '',
      ];
    }),
  );
}
