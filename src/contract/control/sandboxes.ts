import * as z from 'zod';
import { contract, deferred, done, lazy, reply } from '../kit.js';
import { scenario, scenarioName } from '../scenarios.js';
import { isoDate } from '../wire.js';

// Isolated sandboxes: many worlds in one process.

/** An isolated sandbox's id: what its paths (`/sandboxes/{id}/…`) name it by. */
export const SANDBOX_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The control API's path of the isolated sandboxes (`/__sandbox/sandboxes`). */
const SANDBOXES_PATH = '/sandboxes';

export const newSandboxBody = deferred(() =>
  z.strictObject({
    id: z
      .string()
      .regex(
        SANDBOX_ID,
        'must be 1 to 63 lowercase letters, digits and dashes, starting with a letter or digit',
      )
      .optional()
      .describe('its name in its paths; one is made when absent'),
    replace: z
      .boolean()
      .optional()
      .describe(
        'true: a sandbox of this `id` is deleted first, with its queued work, and a new one made (a rerun after a killed run); without it an `id` in use is 409',
      ),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional()
      .describe('the seed of its fixtures and identifiers (default: the process’s `--seed`)'),
    scenario: z
      .union([scenarioName, scenario])
      .optional()
      .describe(
        'its start-up scenario, which a reset brings back: a ready one by name, or a scenario object (default: the process’s `--scenario`)',
      ),
    clock: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        'an ISO 8601 time its clock starts frozen at, and a reset brings back (default: real time, running)',
      ),
  }),
);
export type NewSandbox = z.infer<ReturnType<typeof newSandboxBody>>;

export const createdSandbox = lazy('CreatedSandbox', () =>
  z.strictObject({
    id: z.string(),
    apiUrl: z.string().describe('the bank’s API of this sandbox: point the app at it instead of `…/api/v1`'),
    controlUrl: z.string().describe('its control API: every call of `/__sandbox` about state'),
    createdAt: isoDate(),
    persistent: z
      .literal(false)
      .describe('isolated sandboxes live in memory only, and are gone after a restart'),
  }),
);
export type CreatedSandboxView = z.infer<ReturnType<typeof createdSandbox>>;

export const sandboxSummary = lazy('SandboxSummary', () =>
  z.strictObject({
    id: z.string(),
    createdAt: isoDate(),
    lastUsedAt: isoDate().describe(
      'when it was last in use (a request, a drain, a dashboard page, a webhook delivery): one unused for `--sandbox-idle-ttl` is dropped',
    ),
    requests: z.number().int().describe('requests it answered'),
  }),
);
export type SandboxSummaryView = z.infer<ReturnType<typeof sandboxSummary>>;

const TAG = 'Isolated sandboxes';
const params = {
  id: { description: 'the isolated sandbox’s id', example: 'worker-1' },
} as const;

export const createSandboxContract = contract({
  operationId: 'createSandbox',
  method: 'post',
  path: SANDBOXES_PATH,
  summary: 'Create an isolated sandbox',
  description:
    'A world of its own in this process, built from the same fixtures (the README’s logins and keys work in it): its own state, token key, clock, scenario, request journal, outbox and webhook and bulk queues. It answers the whole bank API at `/sandboxes/{id}/api/v1/…` and its control API at `/sandboxes/{id}/__sandbox/…`. Memory only: gone after a restart, or once unused for `--sandbox-idle-ttl`.',
  tag: TAG,
  auth: { scheme: 'none' },
  body: newSandboxBody,
  example: { id: 'worker-1', seed: 7, scenario: 'default', clock: '2026-01-15T09:00:00.000Z' },
  responses: {
    201: reply('Sandbox created', createdSandbox),
    400: 'a field is not valid (named in `errors`): an id that is not 1 to 63 lowercase letters, digits and dashes, a seed, a scenario no ready one is named (the message lists the ready ones, and the one meant when a name is near enough), a time that is not ISO 8601 or outside the clock’s range',
    404: 'called inside an isolated sandbox: they are made at the root only',
    409: 'an isolated sandbox of this id exists already (and `replace` is not true), or one of this id is being made now',
    429: 'as many isolated sandboxes as `--max-sandboxes` exist already',
  },
});

export const listSandboxesContract = contract({
  operationId: 'listSandboxes',
  method: 'get',
  path: SANDBOXES_PATH,
  summary: 'The isolated sandboxes',
  description: 'Every isolated sandbox of this process, the oldest first.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: {
    200: reply(
      'Sandboxes retrieved',
      lazy('SandboxList', () => z.array(sandboxSummary())),
    ),
    404: 'called inside an isolated sandbox: they are listed at the root only',
  },
});

export const deleteSandboxContract = contract({
  operationId: 'deleteSandbox',
  method: 'delete',
  path: `${SANDBOXES_PATH}/{id}`,
  summary: 'Delete an isolated sandbox',
  description:
    'Drops it at once: its queued bulk items and pending webhook deliveries go with it, and its paths answer 404 from now on. A request or drain it was answering answers 410 `Sandbox "ID" was deleted`.',
  tag: TAG,
  auth: { scheme: 'none' },
  params,
  responses: {
    200: done('Sandbox deleted'),
    404: '`No sandbox named "…"`, or called inside an isolated sandbox',
  },
});
