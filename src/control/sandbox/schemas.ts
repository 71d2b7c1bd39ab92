import * as z from 'zod';
import { lazy } from '../../http/route.js';

// The sandbox as a whole: health, metrics, reset, drain and the control API's own document.

export const metricsQuery = z.object({
  gc: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('collect garbage first (node must run with --expose-gc; 409 otherwise)'),
});

/** How long a drain waits, HTTP or code, unless told otherwise. */
export const DRAIN_TIMEOUT_MS = 30_000;

export const drainQuery = z.object({
  timeoutMs: z.coerce.number().int().min(1).max(600_000).default(DRAIN_TIMEOUT_MS),
});

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
    info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }),
    servers: z.array(z.strictObject({ url: z.string(), description: z.string() })),
    security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
    tags: z.array(z.strictObject({ name: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), object.optional())),
    components: z.strictObject({
      schemas: z.record(z.string(), object),
      securitySchemes: z.record(z.string(), object),
      parameters: z.record(z.string(), object),
    }),
  });
});
