// The `example` of every JSON answer of both OpenAPI documents, taken from the sandbox's own answers: the contract
// tour (test/support/tour.ts, one step per operation with a success and an error, the one
// test/api/http/contract.test.ts checks every answer with) runs on a memory sandbox whose clock stands still, and
// the first body each operation answers with each status is kept. A documented status the tour does not reach is
// made from the sandbox's own words (`envelopeFor`, `UNREACHED`, `beyondTheTour`). `npm run docs` writes the result
// to src/openapi/answer-examples.json, which src/openapi/document.ts reads; test/api/docs/answer-examples.test.ts
// fails while the committed file differs from what this makes.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import states from '../fixtures/states.json' with { type: 'json' };
import type { App } from '../src/app.js';
import { apiContracts } from '../src/contract/api/index.js';
import { controlContracts } from '../src/contract/control/index.js';
import { DRAIN_TIMEOUT_MS, type WaitingWork } from '../src/contract/control/sandbox.js';
import { failures } from '../src/contract/failures.js';
import { isReply, type Reply, type RouteContract } from '../src/contract/kit.js';
import { isoOf } from '../src/domain/clock.js';
import { ApiError } from '../src/domain/errors.js';
import { parseInput } from '../src/domain/parse.js';
import { DrainTimeoutError } from '../src/errors.js';
import { foreignHost } from '../src/http/exposure.js';
import { apiDocument, controlDocument, type JsonObject } from '../src/openapi/document.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox.js';
import { StoreWriteError } from '../src/store/write-error.js';
import type { Worlds } from '../src/worlds/registry.js';
import { A, schemeA, tokenFor } from '../test/support/sandbox.js';
import { runTour, startTour } from '../test/support/tour.js';

/** Where `npm run docs` writes the examples, relative to the project root. */
export const ANSWER_EXAMPLES_PATH = 'src/openapi/answer-examples.json';

/** Where the sandbox's clock stands for the whole tour: every time an answer shows is this one. */
const FROZEN_AT = Date.parse('2026-01-15T09:00:00.000Z');

/** `operationId` → status → the example body. */
export type AnswerExamples = Record<string, Record<string, unknown>>;

/**
 * What real time measures rather than the sandbox (how long a request took, the process's memory), by field name:
 * a fixed value, so that the file is the same on every run.
 */
const MEASURED: Record<string, number> = {
  durationMs: 1.5,
  uptimeSeconds: 120,
  // A HAR entry's time and its wait: the request's duration.
  time: 1.5,
  wait: 1.5,
  rssBytes: 104_857_600,
  heapUsedBytes: 31_457_280,
  heapTotalBytes: 41_943_040,
  externalBytes: 4_194_304,
};

/** An ISO 8601 UTC time, as every timestamp is written. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `value` with what varies between two runs made fixed: a time read from the real clock (the request journal's,
 * an isolated sandbox's) becomes the frozen clock's time, a measurement its fixed value. `real` is the span of real
 * time the tour ran in; the sandbox's own clock stands at `FROZEN_AT`, far from it.
 */
function normalised(value: unknown, real: { from: number; to: number }, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => normalised(item, real));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v, real, k)]));
  if (typeof value === 'number' && key !== undefined && key in MEASURED) return MEASURED[key];
  if (typeof value === 'string' && ISO_TIME.test(value)) {
    const ms = Date.parse(value);
    if (ms >= real.from - 1000 && ms <= real.to + 1000) return isoOf(FROZEN_AT);
  }
  return value;
}

/** Every `example` key of a document taken out: the control document's own example must not hold itself. */
function withoutExamples(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExamples);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'example')
      .map(([key, item]) => [key, withoutExamples(item)]),
  );
}

/** The names of the component schemas `value` refers to, and those they refer to in turn. */
function referredSchemas(
  value: unknown,
  schemas: Record<string, unknown>,
  found = new Set<string>(),
): Set<string> {
  const text = JSON.stringify(value);
  for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    if (name === undefined || found.has(name)) continue;
    found.add(name);
    referredSchemas(schemas[name], schemas, found);
  }
  return found;
}

/**
 * Answers too large to show whole, cut to a few of their parts: the control document, to its first path and the
 * schemas it uses (and no examples, which would hold the document itself); a HAR, to its first two entries; the
 * state export, to the first two records of each collection.
 */
const TRIMS: Record<string, (body: JsonObject) => JsonObject> = {
  openapiControl: (doc) => {
    const [first] = Object.entries(doc.paths as JsonObject);
    const paths = withoutExamples(Object.fromEntries(first ? [first] : [])) as JsonObject;
    const components = doc.components as { schemas: Record<string, unknown> } & JsonObject;
    const used = referredSchemas(paths, components.schemas);
    const schemas = Object.fromEntries(Object.entries(components.schemas).filter(([name]) => used.has(name)));
    return { ...doc, paths, components: { ...components, schemas } };
  },
  requestsHar: (har) => {
    const log = har.log as { entries: unknown[] } & JsonObject;
    return { ...har, log: { ...log, entries: log.entries.slice(0, 2) } };
  },
  exportState: (state) => {
    const collections = state.collections as Record<string, unknown[]>;
    const firsts = Object.entries(collections).map(([name, records]) => [name, records.slice(0, 2)]);
    return { ...state, collections: Object.fromEntries(firsts) };
  },
};

/** Sends every request of the tour with a request id of its own, numbered: the answers' ids are the same each run. */
function numberedRequests(sandbox: Sandbox): Sandbox {
  let count = 0;
  const request: App['request'] = (input, init, ...rest) => {
    const headers = new Headers(init?.headers);
    count++;
    if (!headers.has('x-request-id'))
      headers.set('x-request-id', `00000000-0000-4000-8000-${String(count).padStart(12, '0')}`);
    return sandbox.app.request(input, { ...init, headers }, ...rest);
  };
  const app = new Proxy(sandbox.app, {
    get: (target, key) => (key === 'request' ? request : Reflect.get(target, key)),
  });
  return new Proxy(sandbox, { get: (target, key) => (key === 'app' ? app : Reflect.get(target, key)) });
}

/** A memory sandbox on the frozen clock whose every JSON answer goes to `recorded`, the first per operation and status. */
function recordingSandbox(
  recorded: Map<string, unknown>,
  options: SandboxOptions,
  worlds?: (registry: Worlds) => void,
): Promise<Sandbox> {
  return createSandbox(
    { inMemory: true, log: () => undefined, ...options },
    { now: () => FROZEN_AT },
    {
      checkAnswers: (route, status, body) => {
        const key = `${route.operationId} ${status}`;
        // A body of its own (a page, an event stream, a streamed state export) is no JSON to keep.
        if (!(body instanceof Response) && !recorded.has(key)) recorded.set(key, structuredClone(body));
      },
      worlds,
    },
  );
}

/**
 * Refusals the tour leaves out, asked of a sandbox of their own that allows two isolated sandboxes: a third one
 * (429), a drain of an isolated sandbox deleted under it (410), and a registration form whose photo is over the
 * upload limit (413).
 */
async function beyondTheTour(recorded: Map<string, unknown>): Promise<void> {
  let registry: Worlds | undefined;
  const sandbox = numberedRequests(
    await recordingSandbox(recorded, { maxSandboxes: 2 }, (worlds) => {
      registry = worlds;
    }),
  );
  try {
    for (const id of ['first', 'second', 'third'])
      await sandbox.app.request('/__sandbox/sandboxes', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      });
    // What a drain of an isolated sandbox answers when the sandbox is deleted under it (410): its world's words.
    const deleted = registry?.find('first')?.deletedError();
    if (deleted) recorded.set('drain 410', envelope(deleted));
    // Every field right, so that the photo's size is what is refused.
    const form = new FormData();
    const fields = {
      businessId: A.a2.id,
      bvn: '22233344455',
      residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
      stateId: states[0]?.id ?? '',
      otp: '123456',
      password: A.owner.password,
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const photo = new Uint8Array(sandbox.config.uploadLimit + 1);
    form.append('photoId', new File([photo], 'id.png', { type: 'image/png' }));
    await sandbox.app.request('/api/v1/clients/business/complete-registration', {
      method: 'PATCH',
      headers: schemeA(await tokenFor(sandbox, A.owner), A.secretKey),
      body: form,
    });
  } finally {
    await sandbox.close();
  }
}

/** The first JSON body of each operation at each status, as the tour's answers gave them. */
async function recordTour(): Promise<Map<string, unknown>> {
  const recorded = new Map<string, unknown>();
  const sandbox = await recordingSandbox(recorded, { webhookAttempts: 1 });
  const real = { from: Date.now(), to: Date.now() };
  try {
    const numbered = numberedRequests(sandbox);
    const t = await startTour(numbered);
    await runTour(t);
    // The state export streams its body, which the answer check does not read: the tour kept its text.
    const state = t.kept.get('state');
    if (state !== undefined) recorded.set('exportState 200', JSON.parse(state));
  } finally {
    await sandbox.close();
  }
  await beyondTheTour(recorded);
  real.to = Date.now();
  for (const [key, body] of recorded) recorded.set(key, normalised(body, real));
  return recorded;
}

/** An `ApiError` as the sandbox answers it: the error envelope. */
const envelope = (error: ApiError): JsonObject => ({
  status: false,
  message: error.message,
  data: error.data ?? null,
  ...(error.errors === undefined ? {} : { errors: error.errors }),
  ...(error.waiting === undefined ? {} : { waiting: error.waiting }),
});

/** The message a cause begins with, in backticks (`` `Business not found`: the businessId is… ``). */
const quoted = (cause: string) => /`([^`]+)`/.exec(cause)?.[1];

/** Messages a cause names with a part that varies (`Host … is not allowed`), as the sandbox words one. */
const WORDED: Record<string, () => string> = {
  'Host … is not allowed': () => foreignHost('rebind.example', '127.0.0.1').message,
};

/** A validation failure names the operation's own fields: one of another operation is never borrowed. */
const VALIDATION_CAUSE = /^Validation failed/;

/**
 * The 400 the sandbox answers a request of the operation that its body's (form's, query's) schema refuses, in its
 * own words (`parseInput`): an empty one, else one with a field of the wrong type.
 */
function validationFailure(route: RouteContract): JsonObject {
  const schema = route.body ?? route.form ?? route.query;
  const fields = Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
  for (const value of [{}, ...fields.map((field) => ({ [field]: [] }))]) {
    try {
      if (schema) parseInput(schema, value);
    } catch (error) {
      if (error instanceof ApiError) return envelope(error);
      throw error;
    }
  }
  throw new Error(`${route.operationId}: no request its schema refuses`);
}

/**
 * The sandbox's error envelope for a documented status of an operation the tour did not make answer it: a
 * validation failure of its own fields where that is the status's first cause; else the answer the tour saw from
 * another operation of the same door with the same causes for that status (a missing token is answered alike
 * everywhere; where its first cause names no message, one that gives that cause); else the envelope with the
 * message of its first cause that begins with one.
 */
function envelopeFor(
  route: RouteContract,
  api: boolean,
  status: number,
  recorded: Map<string, unknown>,
): JsonObject {
  const causes = failures(route, api).get(status) ?? [];
  if (VALIDATION_CAUSE.test(causes[0] ?? '')) return validationFailure(route);
  const same = JSON.stringify(causes);
  const twin = (alike: (theirs: string[]) => boolean) =>
    (api ? apiContracts : controlContracts)
      .filter((other) => alike(failures(other, api).get(status) ?? []))
      .map((other) => recorded.get(`${other.operationId} ${status}`) as JsonObject | undefined)
      .find((body) => body !== undefined && body.errors === undefined);
  const borrowed =
    twin((theirs) => JSON.stringify(theirs) === same) ??
    (causes[0]?.startsWith('`') ? undefined : twin((theirs) => theirs.includes(causes[0] ?? '')));
  if (borrowed !== undefined) return borrowed;
  // A cause gives its message first, in backticks; one that starts otherwise only names a flag or a header.
  const first = causes.find((cause) => cause.startsWith('`'));
  const message = first === undefined ? undefined : quoted(first);
  if (message === undefined)
    throw new Error(
      `${route.operationId} ${status}: no cause begins with its message, and the tour gave none`,
    );
  return { status: false, message: WORDED[message]?.() ?? message, data: null };
}

/**
 * Answers the tour cannot reach in process, made as the sandbox makes them: health while the disk refuses writes
 * (a file store on a full disk), from the tour's healthy answer; a drain that gave up waiting for a webhook
 * delivery, the tour's, due in a minute on a frozen clock.
 */
const UNREACHED: Record<string, (seen: (id: string, status: number) => unknown) => unknown> = {
  'health 503': (seen) => ({
    ...(seen('health', 200) as JsonObject),
    status: 'degraded',
    reason: new StoreWriteError({ code: 'ENOSPC' }).message,
    since: isoOf(FROZEN_AT),
  }),
  'drain 408': (seen) => {
    const delivery = (seen('getDelivery', 200) as { data: JsonObject }).data;
    const waiting: WaitingWork = {
      clock: { now: isoOf(FROZEN_AT), frozen: true, offsetMs: 0 },
      backlog: { bulkItems: 0, deliveries: 1 },
      batches: [],
      batchCount: 0,
      deliveries: [
        {
          id: String(delivery.id),
          clientId: String(delivery.clientId),
          businessId: String(delivery.businessId),
          attemptsMade: 1,
          attemptsLeft: 5,
          nextAttemptAt: isoOf(FROZEN_AT + 60_000),
          dueInMs: 60_000,
        },
      ],
      deliveryCount: 1,
    };
    const timeout = new DrainTimeoutError(DRAIN_TIMEOUT_MS, waiting);
    return envelope(new ApiError(408, timeout.message, undefined, waiting));
  },
};

/**
 * A success the tour does not reach (a claim answered 200 `already processing` while the batch runs) that has the
 * data of one it does reach: that answer, with this one's message.
 */
function sameShape(route: RouteContract, status: number, seen: (status: number) => unknown): unknown {
  const reply = route.responses[status];
  if (!isReply(reply) || reply.kind === 'raw') return undefined;
  const schemaOf = (r: Reply) => ('schema' in r ? r.schema : undefined);
  for (const [other, twin] of Object.entries(route.responses)) {
    const body = seen(Number(other));
    if (body === undefined || !isReply(twin) || twin.kind !== reply.kind) continue;
    if (schemaOf(twin) === schemaOf(reply)) return { ...(body as JsonObject), message: reply.message };
  }
  return undefined;
}

/** What each documented JSON answer of a document is shown with. */
function examplesOf(
  doc: { paths: Record<string, Partial<Record<string, JsonObject>>> },
  routes: readonly RouteContract[],
  api: boolean,
  recorded: Map<string, unknown>,
): AnswerExamples {
  const byId = new Map(routes.map((route) => [route.operationId, route]));
  const anyOf = (id: string, status: number) => recorded.get(`${id} ${status}`);
  const result: AnswerExamples = {};
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) {
      const route = byId.get(String(operation?.operationId));
      if (!route || !operation) continue;
      const responses = operation.responses as Record<string, { content?: Record<string, unknown> }>;
      const seen = (status: number | string) => anyOf(route.operationId, Number(status));
      const errorStatuses = Object.keys(responses).filter((status) => Number(status) >= 400);
      const recordedErrors = errorStatuses.map(seen).filter((body) => body !== undefined) as JsonObject[];
      const examples: Record<string, unknown> = {};
      for (const [status, response] of Object.entries(responses)) {
        if (!response.content?.['application/json']) continue;
        const code = Number(status);
        let example =
          seen(status) ??
          UNREACHED[`${route.operationId} ${status}`]?.(anyOf) ??
          sameShape(route, code, seen);
        if (example === undefined && code === 422) {
          // A validation failure (a 400 with `errors`), which scenario `validation-422` answers 422: the tour's.
          example =
            recordedErrors.find((body) => Array.isArray(body.errors)) ??
            (api ? validationFailure(route) : undefined);
        } else if (example === undefined && code === 200 && api && !isReply(route.responses[200])) {
          // The 200 of scenario `soft-errors` alone: a refusal, with the body it would have had.
          example = recordedErrors[0] ?? envelopeFor(route, api, Number(errorStatuses[0]), recorded);
        } else if (example === undefined && code >= 400) {
          example = envelopeFor(route, api, code, recorded);
        }
        if (example === undefined) throw new Error(`${route.operationId} ${status}: no example`);
        const trim = code < 300 ? TRIMS[route.operationId] : undefined;
        examples[status] = trim ? trim(example as JsonObject) : example;
      }
      if (Object.keys(examples).length > 0) result[route.operationId] = examples;
    }
  }
  return result;
}

/** Operations by id, each one's statuses in order: the file reads the same however the answers came. */
const sorted = (examples: AnswerExamples): AnswerExamples =>
  Object.fromEntries(
    Object.keys(examples)
      .sort()
      .map((id) => [id, examples[id] ?? {}]),
  );

/** The text of src/openapi/answer-examples.json: every documented JSON answer's example, as the sandbox gives it. */
export async function answerExamplesText(): Promise<string> {
  const recorded = await recordTour();
  const examples = {
    ...examplesOf(apiDocument(), apiContracts, true, recorded),
    ...examplesOf(controlDocument(), controlContracts, false, recorded),
  };
  return biomeFormatted(JSON.stringify(sorted(examples), null, 2), ANSWER_EXAMPLES_PATH);
}

/** The project's formatter, which checks every file of src/, run on `text` as the file at `path` would be. */
function biomeFormatted(text: string, path: string): string {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  return execFileSync(process.execPath, [biome, 'format', `--stdin-file-path=${path}`], {
    input: text,
    encoding: 'utf8',
    cwd: root,
  });
}
