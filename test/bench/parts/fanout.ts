// Part `fanout`: reads and transfers without and with hundreds of dashboard event streams open.
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { load, median, summary } from '../load.js';
import { ours, type Server, startServer, stopServer } from '../processes.js';
import { schemeA, signIn, transferWrite } from '../sandbox-client.js';
import { envNumber, log, ROUNDS, SECONDS, WARMUP_SECONDS } from '../settings.js';
import { int, ms, type Row, ratio, verdict } from '../table.js';
import type { Load, LoadTarget } from '../wrk.js';

const FANOUT_CLIENTS = envNumber('BENCH_FANOUT_CLIENTS', 300);

interface WithAndWithout {
  without: Load;
  with: Load;
}
export interface Fanout {
  reads: WithAndWithout;
  transfers: WithAndWithout;
  /** Bytes each dashboard stream received per second, on average, while they were connected. */
  bytesPerClientPerSecond: number;
}

/** Opens `n` dashboard event streams that read and throw away what they get, as a browser tab left open would. */
async function attachDashboards(server: Server, n: number) {
  let bytes = 0;
  const requests: http.ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = http.get(`${server.url}/__sandbox/ui/events`, { agent: false }, (res) => {
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
            });
            res.on('error', () => undefined);
            resolve();
          });
          req.on('error', reject);
          requests.push(req);
        }),
    ),
  );
  const opened = performance.now();
  return {
    /** Closes every stream; answers bytes per stream per second while open. */
    close: () => {
      const seconds = (performance.now() - opened) / 1000;
      for (const req of requests) req.destroy();
      return bytes / n / seconds;
    },
  };
}

/** `target` in alternation without and with FANOUT_CLIENTS dashboards watching, ROUNDS times, medians. */
async function withAndWithout(
  server: Server,
  target: LoadTarget,
  perClient: number[],
): Promise<WithAndWithout> {
  await load(target, WARMUP_SECONDS);
  const without: Load[] = [];
  const withClients: Load[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await load(target, SECONDS));
    const dashboards = await attachDashboards(server, FANOUT_CLIENTS);
    withClients.push(await load(target, SECONDS));
    perClient.push(dashboards.close());
    log(
      `  round ${round + 1}: ${Math.round(without[round]?.rps ?? 0)} req/s (p99 ${ms(without[round]?.p99 ?? 0)}) without, ` +
        `${Math.round(withClients[round]?.rps ?? 0)} (p99 ${ms(withClients[round]?.p99 ?? 0)}) with ${FANOUT_CLIENTS} dashboards`,
    );
  }
  return { without: summary(without), with: summary(withClients) };
}

export async function benchFanout(dir: string): Promise<Fanout> {
  log(`dashboard fan-out: reads and transfers without and with ${FANOUT_CLIENTS} dashboard event streams`);
  const sandbox = await startServer('fan-out', ours(join(dir, 'fanout.json')));
  try {
    const headers = schemeA(await signIn(sandbox));
    const perClient: number[] = [];
    const reads = await withAndWithout(
      sandbox,
      { url: `${sandbox.url}/api/v1/clients/business/account-details`, headers },
      perClient,
    );
    const transfers = await withAndWithout(
      sandbox,
      transferWrite(sandbox, { ...headers, 'content-type': 'application/json' }),
      perClient,
    );
    return { reads, transfers, bytesPerClientPerSecond: median(perClient) };
  } finally {
    await stopServer(sandbox);
  }
}

export function fanoutRows(fanout: Fanout): Row[] {
  return [
    [
      `fan-out: reads p99 with ${FANOUT_CLIENTS} dashboards (baseline: none)`,
      ms(fanout.reads.with.p99),
      ms(fanout.reads.without.p99),
      ratio(fanout.reads.with.p99, fanout.reads.without.p99),
      '≤ 1.5',
      verdict(fanout.reads.with.p99 <= 1.5 * fanout.reads.without.p99),
    ],
    [
      `fan-out: reads req/s with ${FANOUT_CLIENTS} dashboards (baseline: none)`,
      int.format(fanout.reads.with.rps),
      int.format(fanout.reads.without.rps),
      ratio(fanout.reads.with.rps, fanout.reads.without.rps),
      '',
      '',
    ],
    [
      `fan-out: transfers req/s with ${FANOUT_CLIENTS} dashboards (baseline: none)`,
      int.format(fanout.transfers.with.rps),
      int.format(fanout.transfers.without.rps),
      ratio(fanout.transfers.with.rps, fanout.transfers.without.rps),
      '≥ 0.80',
      verdict(fanout.transfers.with.rps >= 0.8 * fanout.transfers.without.rps),
    ],
    [
      'fan-out: event bytes per dashboard per second',
      int.format(fanout.bytesPerClientPerSecond),
      '',
      '',
      '',
      '',
    ],
  ];
}
