/**
 * Property-based fuzzing of every `/api/v1` and `/__sandbox` route (the list comes from the OpenAPI operation
 * lists in `src/openapi`, so it cannot drift). Each request is generated loosely from the route's own zod schemas
 * (mostly valid, with wrong types, huge and negative numbers, numeric-looking strings, unicode, long strings,
 * nested values and prototype keys mixed in), with random query strings, path parameters and headers (valid
 * scheme A or B credentials about half the time, so requests get past authentication).
 *
 * Properties:
 *  (1) no request is ever answered 5xx;
 *  (2) every 4xx is the error envelope `{status: false, message, data: null}` as JSON, without a stack trace
 *      (on the bank's API `data` is always null, as its docs say; a failed request verification's holds its count);
 *  (3) after each run (and `POST /__sandbox/drain`) every business's balance equals its ledger balance, every
 *      batch's counters equal its items' states, no batch is left `processing`, no prototype was polluted, and
 *      the state export imports again unchanged (snapshot and restore);
 *  (4) a refused request (4xx) and a read changed nothing in `GET /__sandbox/state` (every collection), except
 *      what the contract documents: a failed transfer's `failed` ledger entry and audit entry, and the batch a bulk
 *      process or a batch-level reprocess refused after the claim marks `failed` (no item changes).
 *
 * Three kinds of runs, each starting from the same world (the fixtures plus one record of every kind):
 * every route on its own (1 to 3 requests), mixed sequences of 1 to 8 requests over all routes and unlisted
 * paths, and sequences that start with an edited `PUT /__sandbox/state`.
 *
 * `npm test`: seed 42, 3 runs per route, 30 mixed runs, 15 after an import. `npm run fuzz` (FUZZ_RUNS=N, default
 * 2000): N mixed runs, N/2 after an import and N/10 per route, from a random seed printed first. Replay a failure
 * with FUZZ_SEED=<seed> (add `-t '<test name>'` to run only that test); FUZZ_STATS=1 prints the statuses seen per
 * route; FUZZ_CHECKS=124 (for example) checks only some of the properties, to look past a known failure.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { requestArb, stateImportArb, unknownRequestArb } from './arbitraries.js';
import {
  createTarget,
  describeExchange,
  diffStates,
  drain,
  type Received,
  restoreWorld,
  type StateDiff,
  type StateSnapshot,
  send,
  stateOf,
  type Target,
} from './harness.js';
import { type RequestSpec, routes } from './model.js';

const fuzzRuns = Number(process.env.FUZZ_RUNS ?? '');
const fuzzing = Number.isInteger(fuzzRuns) && fuzzRuns > 0;
const seed =
  process.env.FUZZ_SEED !== undefined && process.env.FUZZ_SEED !== ''
    ? Number(process.env.FUZZ_SEED)
    : fuzzing
      ? Math.floor(Math.random() * 2 ** 31)
      : 42;
/** Runs of each route's own property, and of the mixed sequences. */
// 3 per route in `npm test`: every route still gets requests past authentication, and the file sees nearly every
// (route, status) outcome that 5 per route saw with seed 42, in half the time (docs/performance.md).
const ROUTE_RUNS = fuzzing ? Math.max(1, Math.ceil(fuzzRuns / 10)) : 3;
// 30 mixed in `npm test`: the routes' own runs above already send every route its requests; the mixed runs add
// sequences across routes, which the long run (`npm run fuzz`) explores by the thousand.
const MIXED_RUNS = fuzzing ? fuzzRuns : 30;
const IMPORT_RUNS = Math.ceil(MIXED_RUNS / 2);
const TIMEOUT = fuzzing ? 3_600_000 : 60_000;
const checks = new Set((process.env.FUZZ_CHECKS ?? '1234').split(''));

if (fuzzing || process.env.FUZZ_SEED) {
  console.log(
    `fuzz: seed ${seed}, ${ROUTE_RUNS} runs per route, ${MIXED_RUNS} mixed runs, ${IMPORT_RUNS} after an import (replay: FUZZ_SEED=${seed})`,
  );
}

class PropertyFailure extends Error {}

/** Requests sent and their statuses, per route (printed with FUZZ_STATS=1 and by `npm run fuzz`). */
const stats = new Map<string, Map<number, number>>();
let requestsSent = 0;
function record(route: string, status: number): void {
  requestsSent += 1;
  const byStatus = stats.get(route) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  stats.set(route, byStatus);
}
const started = Date.now();

function fail(property: string, detail: string): never {
  throw new PropertyFailure(`${property}\n${detail}`);
}

const STACK =
  /\bat (?:async )?[^\s()]*\(?[^\s()]+\.(?:ts|js|mjs|cjs):\d+:\d+|node_modules\/|\/src\/\w+\/\w+\.(?:ts|js)/;

/** Property (2): the error envelope, as JSON, and no stack trace. */
function envelopeProblem(received: Received): string | null {
  if (!/^application\/json\b/i.test(received.contentType)) return `content-type is "${received.contentType}"`;
  const body = received.json;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return 'the body is not a JSON object';
  const envelope = body as Record<string, unknown>;
  if (envelope.status !== false) return `status is ${JSON.stringify(envelope.status)}, not false`;
  if (typeof envelope.message !== 'string' || envelope.message.trim() === '') {
    return `message is ${JSON.stringify(envelope.message)}, not a non-empty string`;
  }
  // A request verification that does not hold (409, control API) carries its count and nearest entries; every
  // other error, a failed transfer's included, has `data: null` and no field beyond the envelope's.
  const failedVerification =
    received.status === 409 &&
    envelope.data !== null &&
    typeof envelope.data === 'object' &&
    'nearest' in envelope.data;
  if (!('data' in envelope) || (envelope.data !== null && !failedVerification))
    return `data is ${JSON.stringify(envelope.data)}, not null`;
  if ('errorCode' in envelope) return 'it carries an errorCode, which the docs’ envelope does not';
  if (STACK.test(received.text)) return 'the body holds a stack trace';
  return null;
}

const TRANSFERS = new Set([
  'POST /api/v1/clients/business/customers/funds/transfer',
  'POST /api/v1/clients/business/customers/funds/anonymous-transfer',
]);
const BULK_CLAIMS = new Set([
  'POST /api/v1/clients/business/customers/funds/bulk-transfer/process',
  'POST /api/v1/clients/business/customers/funds/bulk-transfer/reprocess',
  'POST /__sandbox/bulk-transfers/{id}/reprocess',
]);
const BATCH_FAILURES = new Set(['No payment account for this business', 'Insufficient Funds']);

/** Whether the one transaction `diff` added is a `failed` ledger entry, in the state after the request. */
function addedFailedEntry(diff: StateDiff | undefined, after: StateSnapshot): boolean {
  const [id, ...more] = diff?.added ?? [];
  if (id === undefined || more.length > 0) return false;
  const entry = after.collections.transactions?.find((t) => t.id === id) as { status?: unknown } | undefined;
  return entry?.status === 'failed';
}

/**
 * The changes a refused request may make because the contract says so: a failed transfer (a 400 whose answer says
 * no more than its message) records its `failed` ledger entry and an audit entry; a bulk process, or a batch-level
 * reprocess, refused after the claim for the payment account or the balance marks its batch `failed` (the spec's
 * state table and batch-level reprocess), changing no item. Every other refusal changes nothing (the contract,
 * section 4).
 */
function undocumented(
  spec: RequestSpec,
  received: Received,
  diffs: StateDiff[],
  after: StateSnapshot,
): StateDiff[] {
  const body = (received.json ?? {}) as Record<string, unknown>;
  const onlyAdded = (d: StateDiff, n: number) =>
    d.removed.length === 0 && d.changed.length === 0 && d.added.length <= n;
  const transactions = diffs.find((d) => d.collection === 'transactions');
  if (received.status === 400 && TRANSFERS.has(spec.route) && addedFailedEntry(transactions, after)) {
    return diffs.filter(
      (d) => !((d.collection === 'transactions' || d.collection === 'audits') && onlyAdded(d, 1)),
    );
  }
  if (received.status === 400 && BULK_CLAIMS.has(spec.route) && BATCH_FAILURES.has(String(body.message))) {
    return diffs.filter(
      (d) =>
        !(
          d.collection === 'bulkTransfers' &&
          d.added.length + d.removed.length === 0 &&
          d.changed.length <= 1
        ),
    );
  }
  return diffs;
}

/** The requests of the current run, as sent, for the report of a failed invariant. */
let exchanges: string[] = [];

/** Sends one request and checks properties (1), (2) and (4) on it. */
async function step(target: Target, spec: RequestSpec): Promise<void> {
  const read = spec.method === 'GET';
  let before: StateSnapshot | null = null;
  if (checks.has('4')) {
    await drain(target);
    before = await stateOf(target);
  }
  const { sent, received } = await send(target, spec);
  record(spec.route.includes('(unlisted)') ? '(unlisted paths)' : spec.route, received.status);
  const exchange = () => `route:    ${spec.route}\n${describeExchange(sent, received)}`;
  exchanges.push(exchange());
  if (checks.has('1') && received.status >= 500) {
    fail('(1) expected no 5xx', exchange());
  }
  const refused = received.status >= 400 && received.status < 500;
  if (checks.has('2') && refused) {
    const problem = envelopeProblem(received);
    if (problem) fail(`(2) expected the error envelope on a ${received.status}: ${problem}`, exchange());
  }
  if (before && (refused || read)) {
    const after = await stateOf(target);
    const left = undocumented(spec, received, diffStates(before, after), after);
    if (left.length > 0) {
      fail(
        `(4) expected ${read ? 'a read' : `a refused request (${received.status})`} to change nothing, but it changed ${JSON.stringify(left)}`,
        exchange(),
      );
    }
  }
  // A scenario change lasts only for the request that made it: the active scenario stays `default`.
  if (spec.path.startsWith('/__sandbox/scenario') && !read) {
    await target.sandbox.app.request('/__sandbox/scenario', { method: 'DELETE' });
  }
}

interface Batch {
  id: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  status: string;
}
interface Item {
  id: string;
  bulkTransferId: string;
  status: string;
}

const prototypeKeys = (): string =>
  [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
const cleanPrototypes = prototypeKeys();

/** Property (3), after the queues are drained. */
async function invariants(target: Target, specs: RequestSpec[]): Promise<void> {
  const where = () => `after the run of ${specs.length} request(s):\n${exchanges.join('\n---\n')}`;
  await drain(target);
  const snapshot = await stateOf(target);
  const state = snapshot.collections;
  for (const business of state.businesses ?? []) {
    const res = await target.sandbox.app.request(
      `/__sandbox/businesses/${encodeURIComponent(business.id)}/ledger`,
    );
    const body = (await res.json()) as { data?: { balance?: number; ledgerBalance?: number } };
    if (res.status !== 200 || body.data?.balance !== body.data?.ledgerBalance) {
      fail(
        `(3) expected balance === ledgerBalance for business ${JSON.stringify(business.id)}, got ${res.status} balance ${body.data?.balance} ledgerBalance ${body.data?.ledgerBalance}`,
        where(),
      );
    }
  }
  const items = (state.bulkItems ?? []) as unknown as Item[];
  for (const batch of (state.bulkTransfers ?? []) as unknown as Batch[]) {
    const own = items.filter((i) => i.bulkTransferId === batch.id);
    const completed = own.filter((i) => i.status === 'completed').length;
    const failed = own.filter((i) => i.status === 'failed').length;
    if (
      batch.completedItems !== completed ||
      batch.failedItems !== failed ||
      batch.totalItems !== own.length
    ) {
      fail(
        `(3) expected batch ${JSON.stringify(batch.id)} counters to equal its items: completedItems ${batch.completedItems} (items ${completed}), failedItems ${batch.failedItems} (items ${failed}), totalItems ${batch.totalItems} (items ${own.length})`,
        where(),
      );
    }
    if (batch.status === 'processing') {
      fail(`(3) expected no batch still processing after a drain: ${JSON.stringify(batch.id)}`, where());
    }
  }
  if (prototypeKeys() !== cleanPrototypes) {
    fail(`(3) expected no prototype pollution: ${prototypeKeys()}`, where());
  }
  // Snapshot and restore: the sandbox's own export must import again, unchanged.
  const reimport = await target.sandbox.app.request('/__sandbox/state', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: snapshot.text,
  });
  if (reimport.status !== 200) {
    fail(
      `(3) expected GET /__sandbox/state to import again with PUT, got ${reimport.status} ${(await reimport.text()).slice(0, 600)}`,
      where(),
    );
  }
  const changed = diffStates(snapshot, await stateOf(target));
  if (changed.length > 0)
    fail(`(3) expected the re-imported state to be the same: ${JSON.stringify(changed)}`, where());
}

async function run(target: Target, specs: RequestSpec[], withInvariants = true): Promise<void> {
  await restoreWorld(target);
  exchanges = [];
  for (const spec of specs) await step(target, spec);
  if (withInvariants && checks.has('3')) await invariants(target, specs);
}

let target: Target;
beforeAll(async () => {
  target = await createTarget();
}, 60_000);
afterAll(async () => {
  await target?.sandbox.close();
  if (fuzzing || process.env.FUZZ_STATS) {
    const lines = [...stats].map(
      ([route, byStatus]) =>
        `  ${route}: ${[...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${status}×${n}`)
          .join(' ')}`,
    );
    console.log(
      `fuzz: ${requestsSent} requests in ${Date.now() - started} ms (seed ${seed})\n${lines.join('\n')}`,
    );
  }
});

describe('fuzz: every route on its own', () => {
  it.each(routes.map((route) => [route.key, route] as const))(
    '%s',
    async (_key, route) => {
      await fc.assert(
        fc.asyncProperty(fc.array(requestArb(route), { minLength: 1, maxLength: 3 }), (specs) =>
          run(target, specs),
        ),
        { seed, numRuns: ROUTE_RUNS },
      );
    },
    TIMEOUT,
  );
});

describe('fuzz: sequences across all routes', () => {
  const anyRequest = fc.oneof(...routes.map((route) => ({ weight: 4, arbitrary: requestArb(route) })), {
    weight: 3,
    arbitrary: unknownRequestArb,
  });

  it(
    'mixed requests, unlisted paths included',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyRequest, { minLength: 1, maxLength: 8 }), (specs) => run(target, specs)),
        { seed, numRuns: MIXED_RUNS },
      );
    },
    TIMEOUT,
  );

  // An imported state is validated record by record, not as a whole (dangling ids, a ledger that does not add
  // up): whatever it holds, no later request may crash, and refusals still change nothing. Properties (1), (2)
  // and (4); the ledger invariant of an edited import is the business of `PUT /__sandbox/state` above.
  it(
    'requests after a state import with a field or a collection changed',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          stateImportArb,
          fc.array(anyRequest, { minLength: 1, maxLength: 6 }),
          (first, rest) => run(target, [first, ...rest], false),
        ),
        { seed, numRuns: IMPORT_RUNS },
      );
    },
    TIMEOUT,
  );
});
