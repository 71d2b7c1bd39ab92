// Part `rules`: reads with 50 scenario rules in force (10 of them counting with `over` and on a calendar with
// `between`) against the same read with none, two processes in the same rounds; and the memory a 60-a-minute `over`
// rule holds after 100,000 calls, in process.
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ScenarioController } from '../../../src/scenarios/controller.js';
import { embeddedScenariosDir, parseScenario, ScenarioLibrary } from '../../../src/scenarios/library.js';
import { alternated, type Pair } from '../load.js';
import { ours, startServer, stopServer } from '../processes.js';
import { requestJson, schemeA, signIn } from '../sandbox-client.js';
import { envNumber, log } from '../settings.js';
import { int, type Row, verdict } from '../table.js';

const CALLS = envNumber('BENCH_RULES_CALLS', 100_000);

/** Fifty rules that let account-details through: 40 on other paths, 10 counting on a calendar. */
function fiftyRules(): unknown[] {
  const rules: unknown[] = [];
  for (let i = 0; i < 40; i++)
    rules.push({
      on: 'http',
      match: { method: 'POST', path: `^/api/v1/never/${i}$`, header: { 'x-case': `^case-${i}$` } },
      effect: { http: { status: 503 } },
    });
  for (let i = 0; i < 10; i++)
    rules.push({
      on: 'http',
      match: {
        path: '/account-details$',
        // A day's hour that is not now, so the read goes through after every check.
        between: { from: '03:00', to: '03:01' },
        over: { count: 1_000_000, windowMs: 60_000 },
      },
      effect: { http: { status: 429 } },
    });
  return rules;
}

export interface Rules {
  reads: Pair;
  /** Events the windows held after CALLS calls to a 60-a-minute rule, and the heap they took. */
  windowEvents: number;
  heapGrowthMb: number;
}

export async function benchRules(dir: string): Promise<Rules> {
  log('rules: account-details with 50 rules in force (10 with over and between) vs none');
  const withRules = await startServer('sandbox (50 rules)', ours(join(dir, 'rules.json')));
  const without = await startServer('sandbox (no rules)', ours(join(dir, 'no-rules.json')));
  let reads: Pair;
  try {
    await requestJson(`${withRules.url}/__sandbox/scenario/rules`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: fiftyRules() }),
    });
    const path = '/api/v1/clients/business/account-details';
    const [measured, baseline] = await alternated(
      [
        { url: `${withRules.url}${path}`, headers: schemeA(await signIn(withRules)) },
        { url: `${without.url}${path}`, headers: schemeA(await signIn(without)) },
      ],
      [withRules.child.pid, without.child.pid],
    );
    if (!measured || !baseline) throw new Error('rules: not measured');
    reads = measured;
  } finally {
    await stopServer(withRules);
    await stopServer(without);
  }
  log(`rules: ${CALLS} calls to a 60-a-minute over rule, in process`);
  // The rules' controller alone, as every request meets it: a call a millisecond, so the window keeps moving.
  const library = await ScenarioLibrary.load(embeddedScenariosDir);
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const scenario = parseScenario(
    {
      name: 'counting',
      description: 'one counting rule',
      rules: [
        { on: 'http', match: { over: { count: 60, windowMs: 60_000 } }, effect: { http: { status: 429 } } },
      ],
    },
    'bench',
  );
  const controller = new ScenarioController(scenario, library, 1, () => now);
  // A collection before and after, so the growth is what the window keeps, not garbage not yet collected.
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < CALLS; i++) {
    now += 1;
    controller.matchAll({ on: 'http', clientId: 'c1', method: 'GET', path: '/api/v1/x', key: `GET /x ${i}` });
  }
  gc();
  const heapGrowthMb = (process.memoryUsage().heapUsed - before) / 1_048_576;
  return { reads, windowEvents: controller.windowEvents(), heapGrowthMb };
}

export function rulesRows(r: Rules): Row[] {
  return [
    [
      'reads req/s with 50 rules in force, 10 with over and between (baseline: no rules, same rounds)',
      int.format(r.reads.a.rps),
      int.format(r.reads.b.rps),
      r.reads.ratio.toFixed(2),
      '≥ 0.90',
      verdict(r.reads.ratio >= 0.9),
    ],
    [
      `a 60-a-minute over rule after ${int.format(CALLS)} calls: events its window holds, heap growth`,
      `${r.windowEvents} events, ${r.heapGrowthMb.toFixed(1)} MB`,
      '',
      '',
      '≤ 60 events',
      verdict(r.windowEvents <= 60),
    ],
  ];
}
