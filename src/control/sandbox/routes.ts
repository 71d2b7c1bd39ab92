import { DONE, defineRoute, done, type Route, raw, reply } from '../../http/route.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { metricsNow } from './metrics.js';
import { drainQuery, health, healthDegraded, metrics, metricsQuery, openapiDocument } from './schemas.js';
import { drain, healthNow } from './service.js';

const TAG = 'Sandbox';

/**
 * Built on first request: the builder reads every route's schemas and sits in a chunk of its own, so start-up,
 * which the benchmark watches, does not pay for it. Imported then, not at load: it imports these routes.
 */
let document: Promise<OpenApiDocument> | undefined;
const controlDocument = () => {
  document ??= import('../../openapi/document.js').then((m) => m.controlDocument());
  return document;
};

/** The sandbox as a whole: health, metrics, reset, drain, and this API's document. */
export const sandboxRoutes: Route[] = [
  defineRoute({
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
    handle: ({ deps, control }) => {
      const now = healthNow(deps, control);
      return now.status === 'ok' ? { json: now } : { status: 503, json: now };
    },
  }),
  defineRoute({
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
    handle: ({ deps, engines, control, query }) => ({
      data: metricsNow(deps, control.requests, engines, query.gc),
    }),
  }),
  defineRoute({
    operationId: 'openapiControl',
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    description: 'The bank’s API is described at `/openapi.json`; both are shown at `/docs`.',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: raw('The OpenAPI 3.1 document of the control API', openapiDocument) },
    handle: async () => ({ json: await controlDocument() }),
  }),
  defineRoute({
    operationId: 'reset',
    method: 'post',
    path: '/reset',
    summary: 'Reset to the fixtures',
    description:
      'Same seed; queued bulk items dropped; the start-up scenario (with its counters and ordinals) back; the clock back to real time, running.',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: done('Sandbox reset to the fixtures') },
    handle: async ({ control }) => {
      await control.reset();
      return DONE;
    },
  }),
  defineRoute({
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
    },
    handle: async ({ control, query }) => {
      await drain(control, query.timeoutMs);
      return DONE;
    },
  }),
];
