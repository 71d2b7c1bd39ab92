// Part `soak`: a mixed workload on the real process for a minute, and its memory before, during and after.
import type { ChildProcess } from 'node:child_process';
import { cp } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_STRING_LENGTH } from '../../../src/config.js';
import { loadGenerator } from '../load.js';
import { peakRss, residentMb, rssKinds } from '../proc.js';
import { type Launch, listenForHooks, ours, type Server, startServer, stopServer } from '../processes.js';
import { isRecord, requestJson, schemeA, signIn } from '../sandbox-client.js';
import { envNumber, log } from '../settings.js';
import { int, mb, ms, type Row, ratio, verdict } from '../table.js';
import { type Load, wrkRun } from '../wrk.js';

const SOAK_SECONDS = envNumber('BENCH_SOAK_SECONDS', 60);
const SOAK_CONNECTIONS = envNumber('BENCH_SOAK_CONNECTIONS', 200);
/** How long the soaked process idles between the drain and the reading at the end. */
const SOAK_IDLE_SECONDS = envNumber('BENCH_SOAK_IDLE_SECONDS', 20);
/** A hard bound on the soaked process's memory, MB; none unless set. */
const SOAK_MEMORY_LIMIT_MB = process.env.BENCH_SOAK_MEMORY_LIMIT_MB
  ? envNumber('BENCH_SOAK_MEMORY_LIMIT_MB', 0)
  : null;
/** The soak's figures before it was worked on: RSS and live heap at the end. */
const ISSUE_BASELINE = { rssMb: 943, liveHeapMb: 107 };
/** How long a reading waits after its collection before it reads the memory (see `reading`). */
const SETTLE_MS = 250;

interface Memory {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
}

/** One reading of `GET /__sandbox/metrics?gc=true`: memory after a full collection, and the records held. */
interface Reading {
  memory: Memory;
  records: Record<string, number>;
  requestJournal: { entries: number; capacity: number };
}

export interface Soak {
  load: Load;
  /**
   * Highest resident memory of the soaked process from its start to the reading at the end (VmHWM), MB: the
   * warm-up, its re-import (two copies of a state of some 10 000 records for a moment), the load, the drain.
   */
  peakRssMb: number;
  /** The soaked process after the warm-up, once the load's queues drained, and at the end (idle since then). */
  before: Reading;
  drained: Reading;
  after: Reading;
  /** Its resident memory at the end by kind: files mapped (the node binary's pages), anonymous (V8's heap…). */
  afterKinds: { fileMb: number; anonymousMb: number };
  /** Fresh processes that loaded the state as it was after the warm-up and at the end. */
  freshBefore: Reading;
  freshAfter: Reading;
  /**
   * The soaked process at the end, after it re-imported its own state (PUT /state of its GET /state); null under
   * a memory bound, where the heap Node would have in a container of that size does not hold two copies of it.
   */
  reimported: Reading | null;
  /** The same after the warm-up: what the process holds beyond its state before the soak (compiled code…). */
  reimportedBefore: Reading | null;
  webhooksReceived: number;
}

/**
 * Live heap the soaked process holds beyond its state: its heap less the heap of a fresh process that loaded the
 * same state. Warm-up leaves some (compiled code, buffers); a leak makes it grow during the soak.
 */
const overhead = (soaked: Reading, fresh: Reading) =>
  soaked.memory.heapUsedBytes - fresh.memory.heapUsedBytes;

/**
 * A full collection, then the memory once V8 has finished with it. V8 sweeps and gives freed pages back to the
 * system on threads of its own, after the collection returns: read at once, RSS still held them (up to 180 MB more
 * in the soak, gone 100 ms later). The second request allocates next to nothing, so its heap figure is the one
 * after the collection.
 */
async function reading(server: Server): Promise<Reading> {
  await requestJson(`${server.url}/__sandbox/metrics?gc=true`);
  await sleep(SETTLE_MS);
  const body = await requestJson(`${server.url}/__sandbox/metrics`);
  if (!isRecord(body) || !isRecord(body.data)) throw new Error(`metrics: ${JSON.stringify(body)}`);
  return body.data as unknown as Reading;
}

const totalRecords = (r: Reading) => Object.values(r.records).reduce((sum, n) => sum + n, 0);

/** A webhook receiver in this process that acknowledges everything with 200, counting what it got. */
async function startAcknowledger(): Promise<{
  url: string;
  received: () => number;
  close: () => Promise<void>;
}> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end('ok');
    });
  });
  return {
    url: await listenForHooks(server),
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A hard bound on a process's memory: its resident memory is read every 20 ms, and the moment it is over
 * `limitMb` the process is killed with SIGKILL, as the kernel's OOM killer kills a container that outgrows its
 * `--memory`. (A cgroup with `memory.max` would have the kernel enforce it; this machine's cgroups are not the
 * bench's to change, so it watches instead.) A spike between two readings is caught afterwards from the kernel's
 * own peak, VmHWM (see `benchSoak`).
 */
function memoryBound(child: ChildProcess, limitMb: number) {
  const started = performance.now();
  let crossed: string | null = null;
  const timer = setInterval(() => {
    const rss = child.pid === undefined ? 0 : residentMb(child.pid);
    if (rss <= limitMb) return;
    crossed = `RSS ${rss.toFixed(0)} MB crossed the bound of ${limitMb} MB ${((performance.now() - started) / 1000).toFixed(1)} s into the soak; killed`;
    clearInterval(timer);
    child.kill('SIGKILL');
  }, 20);
  return {
    /** Why the process was killed, or null. */
    crossed: () => crossed,
    stop: () => clearInterval(timer),
  };
}

/**
 * A mixed workload on the real process (file store, started with --expose-gc so the metrics route can collect
 * garbage before each reading) for SOAK_SECONDS at SOAK_CONNECTIONS. Of every six requests: three reads (account
 * details, a page of customers, the businesses), one replay of an acknowledged transfer (idempotent), one new
 * transfer and one incoming payment, whose webhook goes to a receiver that acknowledges it. Every answer must be
 * 2xx.
 *
 * Memory: new transfers and payments are state and must stay (a bank does not forget them), so the heap grows
 * with them. What must not grow is everything else: the request journal and the delivery log are bounded, and
 * nothing may leak. All readings are taken after a full collection. The end is read once the queues drained and
 * the process idled BENCH_SOAK_IDLE_SECONDS (20): V8 keeps the old generation it grew to under the load, pages
 * thinly filled with records among the garbage of requests, until its memory reducer compacts it, some seconds
 * after the allocation rate falls. The RSS right after the drain is printed too. The state files are copied after
 * the warm-up and at the end and fresh processes load the copies: the soaked heap less the fresh heap is
 * what the process holds beyond its state. Records written one by one take somewhat more room than the same
 * records loaded at once, so that difference grows a little with the writes. The leak check: after the warm-up and
 * at the end the soaked process re-imports its own state, which rebuilds every record and index; what it then holds
 * beyond a fresh process's heap must not grow from the one reading to the other (`leakRows`). Anything leaked
 * outside the state would still be there.
 *
 * With BENCH_SOAK_MEMORY_LIMIT_MB, warm-up, load and drain run under a hard bound (`memoryBound`), and the
 * process starts as Node starts in a container of that size: Node gives V8 an old generation of half the memory
 * it reads from the container's cgroup, so the flag that does the same here is passed. Crossing the bound fails
 * the soak. (The re-import of the leak check is the bench's own, so it runs after the bound is lifted.)
 */
export async function benchSoak(dir: string): Promise<Soak> {
  log(
    `soak: ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections, mixed workload` +
      (SOAK_MEMORY_LIMIT_MB ? `, under a hard bound of ${SOAK_MEMORY_LIMIT_MB} MB` : ''),
  );
  const dataFile = join(dir, 'soak.json');
  const launch =
    (file: string, bounded: boolean): Launch =>
    (port) => ({
      // The soaked process re-imports its own state at the end, which may outgrow the default import limit (a
      // container's margin); this machine holds it.
      args: [
        '--expose-gc',
        ...(bounded && SOAK_MEMORY_LIMIT_MB
          ? [`--max-old-space-size=${Math.floor(SOAK_MEMORY_LIMIT_MB / 2)}`]
          : []),
        ...ours(file)(port).args,
        '--import-limit',
        String(MAX_STRING_LENGTH),
      ],
    });
  /** Copies the state files (snapshot and journal) aside, for a fresh process to load later. */
  const keep = async (name: string) => {
    const copy = join(dir, name);
    await cp(dataFile, copy);
    await cp(`${dataFile}.wal`, `${copy}.wal`).catch(() => undefined);
    return copy;
  };
  /** A reading of a fresh process on a copy of the state. */
  const freshReading = async (file: string) => {
    // Outside the bound: a start parses the whole snapshot at once, which needs more heap than serving it.
    const fresh = await startServer('sandbox (soak, fresh)', launch(file, false));
    try {
      return await reading(fresh);
    } finally {
      await stopServer(fresh);
    }
  };
  const receiver = await startAcknowledger();
  const sandbox = await startServer('sandbox (soak)', launch(dataFile, true));
  const bound = SOAK_MEMORY_LIMIT_MB ? memoryBound(sandbox.child, SOAK_MEMORY_LIMIT_MB) : null;
  try {
    const headers = { ...schemeA(await signIn(sandbox)), 'content-type': 'application/json' };
    const api = (path: string, method: string, body: unknown) =>
      requestJson(`${sandbox.url}${path}`, { method, headers, body: JSON.stringify(body) });
    await api('/api/v1/clients/settings/update-webhook-url', 'PATCH', { webhookUrl: receiver.url });
    const opened = await api('/api/v1/clients/business/virtual-accounts', 'POST', {
      firstName: 'Soak',
      lastName: 'Payee',
      type: 'permanent',
      reference: 'soak-va',
    });
    const accountNumber = isRecord(opened) && isRecord(opened.data) ? opened.data.accountNumber : undefined;
    if (typeof accountNumber !== 'string') throw new Error(`virtual account: ${JSON.stringify(opened)}`);
    const transfer = (ref: string) =>
      `{"amount":100,"receiverAccountNumber":"0123456789","receiverBankCode":"058","retrievalReference":"${ref}","narration":"soak"}`;
    await api(
      '/api/v1/clients/business/customers/funds/transfer',
      'POST',
      JSON.parse(transfer('soak-replayed')),
    );
    const lua = [
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
      'local n = 0',
      'request = function()',
      '  n = n + 1',
      '  local k = n % 6',
      `  if k == 0 then return wrk.format("GET", "/api/v1/clients/business/account-details") end`,
      `  if k == 1 then return wrk.format("GET", "/api/v1/clients/business/customers?page=2&limit=10") end`,
      `  if k == 2 then return wrk.format("GET", "/api/v1/clients/business") end`,
      `  if k == 3 then return wrk.format("POST", "/api/v1/clients/business/customers/funds/transfer", nil, ${JSON.stringify(transfer('soak-replayed'))}) end`,
      `  if k == 4 then return wrk.format("POST", "/__sandbox/incoming-payments", nil, '{"accountNumber":"${accountNumber}","amount":5000}') end`,
      `  return wrk.format("POST", "/api/v1/clients/business/customers/funds/transfer", nil, '{"amount":100,"receiverAccountNumber":"0123456789","receiverBankCode":"058","retrievalReference":"soak-${process.pid}-' .. n .. '","narration":"soak"}')`,
      'end',
    ].join('\n');
    const wrk = loadGenerator();
    if (!wrk) throw new Error('the soak needs wrk');
    const drain = () => requestJson(`${sandbox.url}/__sandbox/drain?timeoutMs=600000`, { method: 'POST' });
    /**
     * The process re-imports its own state (every record and index rebuilt at once, as a fresh process loads
     * them) and empties its request journal (bounded, and reported on its own; a fresh process has none).
     */
    const reimport = async () => {
      const state = await fetch(`${sandbox.url}/__sandbox/state`).then((res) => res.text());
      await requestJson(`${sandbox.url}/__sandbox/state`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: state,
      });
      await requestJson(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
      return reading(sandbox);
    };
    // A 10 s client timeout, as an ordinary HTTP client would have (wrk's own default is 2 s).
    await wrkRun(wrk, dir, lua, sandbox.url, 5, SOAK_CONNECTIONS, 10);
    await drain();
    const before = await reading(sandbox);
    const warmedUp = await keep('soak-before.json');
    const reimportedBefore = SOAK_MEMORY_LIMIT_MB ? null : await reimport();
    const load = await wrkRun(wrk, dir, lua, sandbox.url, SOAK_SECONDS, SOAK_CONNECTIONS, 10);
    await drain();
    const drained = await reading(sandbox);
    // Once the load stops, V8's memory reducer compacts the old generation and gives back the pages it grew to
    // (it starts 8 s after the allocation rate falls); the end is read once it had the time to.
    await sleep(SOAK_IDLE_SECONDS * 1000);
    const after = await reading(sandbox);
    const afterKinds = await rssKinds(sandbox.child.pid);
    bound?.stop();
    const peakRssMb = await peakRss(sandbox.child.pid);
    if (SOAK_MEMORY_LIMIT_MB && peakRssMb > SOAK_MEMORY_LIMIT_MB)
      throw new Error(
        `soak: peak RSS ${peakRssMb.toFixed(0)} MB crossed the bound of ${SOAK_MEMORY_LIMIT_MB} MB`,
      );
    const ended = await keep('soak-after.json');
    const reimported = SOAK_MEMORY_LIMIT_MB ? null : await reimport();
    const webhooksReceived = receiver.received();
    await stopServer(sandbox);
    return {
      load,
      peakRssMb,
      before,
      drained,
      after,
      afterKinds,
      freshBefore: await freshReading(warmedUp),
      freshAfter: await freshReading(ended),
      reimported,
      reimportedBefore,
      webhooksReceived,
    };
  } catch (error) {
    // Killed for crossing the bound: whatever request failed then, that is the reason.
    const crossed = bound?.crossed();
    if (crossed) throw new Error(`soak: ${crossed}`);
    const { exitCode, signalCode } = sandbox.child;
    if (exitCode !== null || signalCode !== null)
      throw new Error(`soak: the sandbox died (${signalCode ?? `exit ${exitCode}`}):\n${sandbox.stderr()}`);
    throw error;
  } finally {
    bound?.stop();
    await stopServer(sandbox);
    await receiver.close();
  }
}

/**
 * The soak's target: at the end of the soak, RSS within twice the live heap plus 100 MB, and 400 MB at
 * most; next to the RSS measured at the end of the same soak before the work on it.
 */
function soakTargetRow(soak: Soak): Row {
  const rssMb = soak.after.memory.rssBytes / 1_048_576;
  const liveMb = soak.after.memory.heapUsedBytes / 1_048_576;
  const boundMb = Math.min(2 * liveMb + 100, 400);
  return [
    `soak: RSS at the end (idle ${SOAK_IDLE_SECONDS} s) vs live heap ${liveMb.toFixed(0)} MB (baseline before the soak was worked on: RSS ${ISSUE_BASELINE.rssMb} MB for a live heap of ${ISSUE_BASELINE.liveHeapMb} MB)`,
    `${rssMb.toFixed(0)} MB`,
    `${ISSUE_BASELINE.rssMb} MB`,
    ratio(rssMb, ISSUE_BASELINE.rssMb),
    `≤ 2 × live + 100 MB (${boundMb.toFixed(0)}), ≤ 400 MB`,
    verdict(rssMb <= boundMb),
  ];
}

/**
 * The leak check: the soaked process, once it re-imported its own state, against a fresh process that loaded the
 * same state plus what the same re-import left beyond the state after the warm-up (code compiled and optimised
 * for the workload, and the like: 1.0–1.4 MB more code space alone, while a fresh process has only started). What
 * leaked during the soak would be there on top.
 */
function leakRows(soak: Soak): Row[] {
  const { reimported, reimportedBefore } = soak;
  if (!reimported || !reimportedBefore)
    return [
      [
        'soak: leak check (skipped under the bound: a re-import holds two copies of the state)',
        '',
        '',
        '',
        '',
        '',
      ],
    ];
  const warmedUp = overhead(reimportedBefore, soak.freshBefore);
  const baseline = soak.freshAfter.memory.heapUsedBytes + warmedUp;
  return [
    [
      'soak: heap beyond the state once re-imported, after warm-up → end',
      `${mb(warmedUp)} → ${mb(overhead(reimported, soak.freshAfter))}`,
      '',
      '',
      '',
      '',
    ],
    [
      "soak: leak check, heap at the end once re-imported (baseline: fresh with the same state, + the warm-up's)",
      mb(reimported.memory.heapUsedBytes),
      mb(baseline),
      ratio(reimported.memory.heapUsedBytes, baseline),
      '≤ 1.05',
      verdict(reimported.memory.heapUsedBytes <= 1.05 * baseline),
    ],
  ];
}

export function soakRows(soak: Soak): Row[] {
  return [
    [
      `soak: req/s, ${SOAK_SECONDS} s at ${SOAK_CONNECTIONS} connections, mixed`,
      int.format(soak.load.rps),
      '',
      '',
      '',
      '',
    ],
    ['soak: p99 latency', ms(soak.load.p99), '', '', '', ''],
    [
      'soak: errors and non-2xx answers',
      int.format(soak.load.errors),
      '',
      '',
      '0',
      verdict(soak.load.errors === 0),
    ],
    [
      `soak: RSS after warm-up → queues drained → idle ${SOAK_IDLE_SECONDS} s (each after a full GC)`,
      `${mb(soak.before.memory.rssBytes)} → ${mb(soak.drained.memory.rssBytes)} → ${mb(soak.after.memory.rssBytes)}`,
      '',
      '',
      '',
      '',
    ],
    soakTargetRow(soak),
    // Where that memory is: V8's heap as committed (what a full GC left it holding, live or not), the pages of
    // files mapped (the node binary's code, shared with every node process), and the rest.
    [
      'soak: RSS at the end by kind: V8 heap committed (live) · files mapped · other',
      `${mb(soak.after.memory.heapTotalBytes)} (${mb(soak.after.memory.heapUsedBytes)}) · ` +
        `${soak.afterKinds.fileMb.toFixed(0)} MB · ` +
        `${(soak.afterKinds.anonymousMb - soak.after.memory.heapTotalBytes / 1_048_576).toFixed(0)} MB`,
      '',
      '',
      '',
      '',
    ],
    [
      `soak: peak RSS, warm-up to the end${SOAK_MEMORY_LIMIT_MB ? `, under a hard bound (old generation ${Math.floor(SOAK_MEMORY_LIMIT_MB / 2)} MB, as in a container of that size)` : ''}`,
      `${soak.peakRssMb.toFixed(0)} MB`,
      '',
      '',
      SOAK_MEMORY_LIMIT_MB ? `≤ ${SOAK_MEMORY_LIMIT_MB} MB` : '',
      SOAK_MEMORY_LIMIT_MB ? verdict(soak.peakRssMb <= SOAK_MEMORY_LIMIT_MB) : '',
    ],
    [
      'soak: records in the state, after warm-up → end',
      `${int.format(totalRecords(soak.before))} → ${int.format(totalRecords(soak.after))}`,
      '',
      '',
      '',
      '',
    ],
    [
      'soak: live heap after warm-up → end (after a full GC)',
      `${mb(soak.before.memory.heapUsedBytes)} → ${mb(soak.after.memory.heapUsedBytes)}`,
      `${mb(soak.freshBefore.memory.heapUsedBytes)} → ${mb(soak.freshAfter.memory.heapUsedBytes)}`,
      '',
      'baseline: fresh processes holding the same state',
      '',
    ],
    [
      'soak: heap beyond the state, after warm-up → end',
      `${mb(overhead(soak.before, soak.freshBefore))} → ${mb(overhead(soak.after, soak.freshAfter))}`,
      '',
      '',
      '',
      '',
    ],
    ...leakRows(soak),
    [
      'soak: request journal entries at the end (bounded)',
      int.format(soak.after.requestJournal.entries),
      '',
      '',
      `≤ ${int.format(soak.after.requestJournal.capacity)}`,
      verdict(soak.after.requestJournal.entries <= soak.after.requestJournal.capacity),
    ],
    [
      `soak: webhook deliveries kept at the end (bounded; ${int.format(soak.webhooksReceived)} acknowledged)`,
      int.format(soak.after.records.deliveries ?? -1),
      '',
      '',
      '≤ 1,000',
      verdict((soak.after.records.deliveries ?? Number.POSITIVE_INFINITY) <= 1000),
    ],
  ];
}
