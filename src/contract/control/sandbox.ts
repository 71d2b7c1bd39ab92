import * as z from 'zod';
import { contract, deferred, done, lazy, raw, reply } from '../kit.js';
import { isoDate } from '../wire.js';
import { clock } from './clock.js';

// The sandbox as a whole: health, metrics, reset, drain and the control API's own document.

export const metricsQuery = deferred(() =>
  z.object({
    gc: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true')
      .describe('collect garbage first (node must run with --expose-gc; 409 otherwise)'),
  }),
);

/** How long a drain waits, HTTP or code, unless told otherwise. */
export const DRAIN_TIMEOUT_MS = 30_000;

/** What a reset keeps: `requests` keeps the request journal, which a reset empties otherwise. */
export const resetQuery = deferred(() =>
  z.object({
    keep: z
      .enum(['requests'])
      .optional()
      .describe('`requests`: keep the request journal (a reset empties it otherwise)'),
  }),
);

export const drainQuery = deferred(() =>
  z.object({
    timeoutMs: z.coerce.number().int().min(1).max(600_000).default(DRAIN_TIMEOUT_MS),
  }),
);

/**
 * What a drain that gave up was still waiting for: the `waiting` of its 408 answer, and `DrainTimeoutError.waiting`
 * in code. The control document shows `waiting` as an object (its `ControlErrorEnvelope`); this is its whole shape,
 * which the handle reads it with. It is no response of its own, so no document names it.
 */
export const waitingWork = lazy('WaitingWork', () => {
  const item = z.strictObject({
    id: z.string(),
    itemIndex: z.number().int(),
    status: z.enum(['pending', 'processing']),
  });
  const batch = z.strictObject({
    id: z.string(),
    clientId: z.string(),
    businessId: z.string(),
    batchName: z.string(),
    totalItems: z.number().int(),
    openItems: z.number().int(),
    /** The open items, the first hundred by index. */
    items: z.array(item),
  });
  const delivery = z.strictObject({
    id: z.string(),
    clientId: z.string(),
    businessId: z.string(),
    attemptsMade: z.number().int(),
    attemptsLeft: z.number().int(),
    /** ISO time on the sandbox clock; null when it is not scheduled (queued behind another of its client's). */
    nextAttemptAt: isoDate().nullable(),
    /** How far ahead of the clock that is (0 when due); null with `nextAttemptAt`. */
    dueInMs: z.number().nullable(),
  });
  return z.strictObject({
    clock: clock(),
    /** Bulk items queued or running in the engine; webhook deliveries scheduled, queued or being attempted. */
    backlog: z.strictObject({ bulkItems: z.number().int(), deliveries: z.number().int() }),
    /** Batches still processing, the first hundred of them. */
    batches: z.array(batch),
    /** Batches still processing, named or not. */
    batchCount: z.number().int(),
    /** Pending deliveries, the first hundred by when their next attempt is due. */
    deliveries: z.array(delivery),
    /** Pending deliveries, named or not. */
    deliveryCount: z.number().int(),
  });
});
/** What a drain that gave up was still waiting for. */
export type WaitingWork = z.infer<ReturnType<typeof waitingWork>>;
/** A batch still processing, with its open items (the first hundred of them, by index). */
export type WaitingBatch = WaitingWork['batches'][number];
/** An open item of a batch that is still processing. */
export type WaitingItem = WaitingBatch['items'][number];
/** A pending webhook delivery and when its next attempt is due. */
export type WaitingDelivery = WaitingWork['deliveries'][number];

// What the routes answer.

export const health = lazy('Health', () =>
  z.strictObject({
    status: z.literal('ok'),
    version: z.string(),
    uptimeSeconds: z.number().int(),
  }),
);
export type HealthView = z.infer<ReturnType<typeof health>>;

/** While the state cannot be written: reads work, every write answers 503. */
export const healthDegraded = lazy('HealthDegraded', () =>
  z.strictObject({
    status: z.literal('degraded'),
    version: z.string(),
    uptimeSeconds: z.number().int(),
    reason: z.string(),
    since: z.iso.datetime(),
  }),
);
export type HealthDegradedView = z.infer<ReturnType<typeof healthDegraded>>;

export const metrics = lazy('Metrics', () => {
  const count = z.number().int().min(0);
  return z.strictObject({
    memory: z.strictObject({
      rssBytes: count,
      heapUsedBytes: count,
      heapTotalBytes: count,
      externalBytes: count,
    }),
    records: z.record(z.string(), count).describe('records per collection'),
    requestJournal: z.strictObject({
      entries: count,
      capacity: count,
      bytes: count.describe('what the entries count for against `--journal-bytes`'),
      byteLimit: count,
    }),
    queues: z.strictObject({ bulkItems: count, webhookDeliveries: count }),
    store: z.strictObject({ journalBytes: count, journalFlushes: count, seq: count }),
  });
});
export type MetricsView = z.infer<ReturnType<typeof metrics>>;

/** An OpenAPI 3.1 document, as far as the sandbox's own documents fill it in. */
export const openapiDocument = lazy('OpenApiDocument', () => {
  const object = z.record(z.string(), z.unknown());
  return z.strictObject({
    openapi: z.string(),
    info: z.strictObject({
      title: z.string(),
      version: z.string(),
      description: z.string(),
      license: z.strictObject({ name: z.string(), identifier: z.string() }),
    }),
    servers: z.array(z.strictObject({ url: z.string(), description: z.string() })),
    security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
    tags: z.array(z.strictObject({ name: z.string(), description: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), object.optional())),
    // The bank's document alone: what the bank sends (its incoming-payment notification).
    webhooks: z.record(z.string(), z.record(z.string(), object.optional())).optional(),
    components: z.strictObject({
      schemas: z.record(z.string(), object),
      securitySchemes: z.record(z.string(), object),
      parameters: z.record(z.string(), object),
      headers: z.record(z.string(), object),
    }),
  });
});

const TAG = 'Sandbox';

export const healthContract = contract({
  operationId: 'health',
  method: 'get',
  path: '/health',
  summary: 'Health',
  description:
    'While the state cannot be written (a full disk, an I/O error), answers 503 `degraded` with the reason: reads go on, every write answers 503, and writes come back by themselves once the disk takes them again.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: {
    200: raw('Ready to serve', health),
    // 503, so that Docker's HEALTHCHECK and a compose `service_healthy` see it.
    503: raw('Degraded: the state cannot be written now', healthDegraded),
  },
});

export const metricsContract = contract({
  operationId: 'metrics',
  method: 'get',
  path: '/metrics',
  summary: 'Metrics',
  description:
    'Memory, records per collection, the request journal, the background queues and the store journal, now. The soak benchmark reads it to show that memory holds only the state.',
  tag: TAG,
  auth: { scheme: 'none' },
  query: metricsQuery,
  responses: {
    200: reply('Sandbox metrics', metrics),
    409: '`Garbage collection needs node started with --expose-gc`: `gc=true`, but node runs without it',
  },
});

export const openapiControlContract = contract({
  operationId: 'openapiControl',
  method: 'get',
  path: '/openapi.json',
  summary: 'This document',
  description: 'The bank’s API is described at `/openapi.json`; both are shown at `/docs`.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: raw('The OpenAPI 3.1 document of the control API', openapiDocument) },
});

export const resetContract = contract({
  operationId: 'reset',
  method: 'post',
  path: '/reset',
  summary: 'Reset to the fixtures',
  description:
    'Same seed; queued bulk items dropped; the start-up scenario (with its counters and ordinals) back; the clock back to real time, running; the request journal emptied (its ids go on), unless `keep=requests`. The drift report is kept: `DELETE /drift` empties it.',
  tag: TAG,
  auth: { scheme: 'none' },
  query: resetQuery,
  responses: { 200: done('Sandbox reset to the fixtures') },
});

export const drainContract = contract({
  operationId: 'drain',
  method: 'post',
  path: '/drain',
  summary: 'Wait for the queues',
  description:
    'Answers once the bulk and webhook queues are idle (due retries included) and every change is on disk. Held bulk items are let go. With the clock frozen nothing comes due until the clock is advanced, so advance first.',
  tag: TAG,
  auth: { scheme: 'none' },
  query: drainQuery,
  responses: {
    200: done('Queues are idle'),
    408: 'The queues were still busy after `timeoutMs`: the message and `waiting` name the batches and their open items, the pending deliveries with when each next attempt is due, and the clock (frozen or not)',
    410: 'an isolated sandbox deleted (or dropped) before the drain ended: `Sandbox "ID" was deleted`; its queued work went with it and never ran',
  },
});
