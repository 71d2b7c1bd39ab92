import * as z from 'zod';
import { contract, done, lazy, reply } from '../kit.js';

// With `--upstream URL`, how the real bank's answers differed from the routes the sandbox emulates.

/** The kinds of difference the drift report names. */
export const findingKind = z.enum([
  'undocumented-status',
  'missing-field',
  'extra-field',
  'type',
  'message',
  'unknown-route',
  'upstream-error',
]);

export const driftReport = lazy('DriftReport', () =>
  z.strictObject({
    upstream: z
      .string()
      .nullable()
      .describe(
        'the upstream’s base URL (userinfo and query hidden); null when the sandbox runs without `--upstream`',
      ),
    routes: z.array(
      z.strictObject({
        method: z.string().describe('upper case'),
        path: z
          .string()
          .describe(
            'the route’s template under `/api/v1` (`/clients/business/audits/{auditId}`); for a path the sandbox does not emulate, the path itself (at most 200 characters, long key-like runs masked); `(more paths)` counts the calls past the first 1000 paths',
          ),
        calls: z.int().describe('every call forwarded, failed ones included'),
        statuses: z.record(z.string(), z.int()).describe('how many answers of each status'),
        findings: z.array(
          z.strictObject({
            kind: findingKind.describe(
              '`undocumented-status`: a status the route does not document; `missing-field`, `extra-field`; `type`: the JSON type (or documented value) seen against the one documented; `message`: a documented message that differs; `unknown-route`: a path the sandbox does not emulate; `upstream-error`: a refused connection, a timeout, bytes that are not HTTP, a status HTTP answers cannot have, a body that broke off, would not decode or passed `--upstream-max-body`, or is not JSON where JSON is documented',
            ),
            at: z
              .string()
              .describe(
                'a dotted path into the body (`data.customerId`, `data[].amount`, `message`), or `status`, `path`, `body`, `connection`',
              ),
            expected: z
              .string()
              .describe('what the route documents: a JSON type, a value, a message, statuses'),
            seen: z
              .string()
              .describe(
                'what the upstream answered: a JSON type, a documented value, a message (at most 200 characters, runs of 24 or more key-like characters masked to their last 4); never a secret value',
              ),
            count: z.int().describe('how many answers showed it'),
            requestId: z
              .string()
              .describe('the `x-request-id` of the first call that showed it (see `GET /requests`)'),
          }),
        ),
      }),
    ),
  }),
);
export type DriftReportView = z.infer<ReturnType<typeof driftReport>>;

export const driftContract = contract({
  operationId: 'drift',
  method: 'get',
  path: '/drift',
  summary: 'The drift report',
  description:
    'With `--upstream URL`, every `/api/v1` request goes to the upstream as it was sent and its answer comes back unchanged; each answer is held against the sandbox’s own route for that method and path (the one that drives the emulation and the documents). Per route: the calls, the statuses seen, and each finding once, with its count and the request id of its first call. Shapes, statuses and messages only, never a credential or a secret value. Without `--upstream`: `upstream` null and no routes.',
  tag: 'Sandbox',
  auth: { scheme: 'none' },
  responses: { 200: reply('Drift report', driftReport) },
});

export const clearDriftContract = contract({
  operationId: 'clearDrift',
  method: 'delete',
  path: '/drift',
  summary: 'Clear the drift report',
  description: 'Empties the drift report, to measure one run of a suite on its own.',
  tag: 'Sandbox',
  auth: { scheme: 'none' },
  responses: { 200: done('Drift report cleared') },
});
