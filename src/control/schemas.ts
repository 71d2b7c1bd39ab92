import * as z from 'zod';
import { accountNumber, bankCode, koboAmount } from '../api/transfers/schemas.js';
import { pageQuery } from '../domain/pagination.js';
import { bulkStatus, deliveryStatus, outboxType } from '../domain/statuses.js';
import { scenario, scenarioName, scenarioRule } from '../scenarios/schema.js';

// The wire schemas of the control API, in one place so that the routes and the OpenAPI document read the same
// ones (as `src/api/*/schemas.ts` does for the bank's API).

export const balanceBody = z.object({ balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export const outboxQuery = z.object({
  to: z.string().trim().min(1).optional(),
  type: outboxType.optional(),
});

export const requestsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000_000).default(100),
  method: z.string().trim().toUpperCase().optional(),
  status: z.coerce.number().int().min(100).max(599).optional(),
  path: z.string().trim().min(1).max(500).optional(),
});

export const incomingPaymentBody = z.object({
  accountNumber,
  amount: koboAmount(1, 10_000_000_000),
  accountName: z.string().trim().min(1).max(100).optional(),
  payerAccountNumber: accountNumber.optional(),
  payerBankCode: bankCode.optional(),
  narration: z.string().trim().min(1).max(200).optional(),
});

export const deliveriesQuery = pageQuery.extend({
  status: deliveryStatus.optional(),
  clientId: z.string().trim().min(1).optional(),
});

export const batchesQuery = pageQuery.extend({
  status: bulkStatus.optional(),
  clientId: z.string().trim().min(1).optional(),
});

export const reprocessItemBody = z.object({
  itemId: z.string().trim().min(1).optional().describe('one failed item; all failed items when left out'),
});

export const advanceBody = z.object({
  ms: z
    .number()
    .int()
    .min(1)
    .describe('how far to move the clock; the clock must stay inside the range of a Date (±8.64e15 ms)'),
});

export const freezeBody = z.object({ frozen: z.boolean().default(true) });

export const overrideBody = z.object({ rules: z.array(scenarioRule).min(1).max(200) });

/** `PUT /scenario` by name: a ready scenario. */
export const scenarioByName = z.object({ name: scenarioName }).strict();

/** What `PUT /scenario` takes: the name of a ready scenario, or a whole scenario object. */
export const scenarioChoice = z.union([scenarioByName, scenario]);

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
