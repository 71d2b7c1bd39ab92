import * as z from 'zod';
import { lazy, type Reply } from './route.js';

// The pieces every wire shape is made of, and the two that frame every answer: the pagination object and the
// error envelope.

/**
 * An instant as `Date.toISOString()` writes it: ISO 8601 in UTC (milliseconds optional). A year past 9999 (the virtual
 * clock may be moved that far) takes a sign and six digits, which `z.iso.datetime()` would refuse.
 */
const ISO_INSTANT = /^(?:\d{4}|[+-]\d{6})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** A date and time as the API sends it. */
export const isoDate = () =>
  z.string().regex(ISO_INSTANT, 'must be an ISO 8601 date and time in UTC').meta({ format: 'date-time' });

/** An amount as the API sends it: kobo, as a string of digits. */
export const kobo = () => z.string().regex(/^\d+$/).describe('kobo');

export const pagination = lazy('Pagination', () =>
  z.strictObject({
    totalCount: z.number().int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    nextPage: z.number().int().describe('0 when there is no next page'),
    previousPage: z.number().int().describe('0 when there is no previous page'),
    limit: z.number().int(),
    lastPage: z.number().int().describe('max(1, ceil(totalCount / limit))'),
  }),
);

export const errorEnvelope = lazy('ErrorEnvelope', () =>
  z.strictObject({
    status: z.literal(false),
    message: z.string(),
    data: z
      .union([
        z.strictObject({
          transactionReference: z
            .string()
            .describe('the failed transfer’s ledger entry: the `transactionId` of a dispute'),
          retrievalReference: z.string().describe('the reference the transfer was sent with'),
        }),
        z.strictObject({
          count: z.number().int().describe('requests in the journal that match'),
          expected: z
            .record(z.string(), z.number().int())
            .describe('`exactly`, `atLeast`, `atMost` as asked'),
          nearest: z
            .array(
              z.strictObject({
                unmatched: z
                  .array(z.string())
                  .describe('the criteria the entry misses: `status`, `body.amount`…'),
                entry: z.record(z.string(), z.unknown()).describe('a `RequestEntry`'),
              }),
            )
            .describe('up to 5 entries meeting the most criteria, newest first among equals'),
        }),
      ])
      .nullable()
      .describe(
        'null, except on a failed transfer (400 with `errorCode`): its references, so that it can be disputed; and on a request verification that does not hold (409): the count and the nearest entries',
      ),
    errors: z
      .array(z.strictObject({ field: z.string(), message: z.string() }))
      .optional()
      .describe('on a validation failure: each bad field'),
    errorCode: z
      .string()
      .optional()
      .describe("on a failed transfer: the provider's response code (`51`, `07`…)"),
    waiting: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'on a drain that gave up (408): `clock`, `backlog`, `batches` with their open `items`, `deliveries` with `nextAttemptAt` and `dueInMs`',
      ),
  }),
);

/** The whole body a success answer carries, as a strict schema: the envelope around the reply's data. */
export function answerSchema(reply: Reply): z.ZodType | undefined {
  switch (reply.kind) {
    case 'raw':
      return reply.schema?.();
    case 'done':
      return z.strictObject({ status: z.literal(true), message: z.string() });
    case 'data':
      return z.strictObject({ status: z.literal(true), message: z.string(), data: reply.schema() });
    case 'page':
      return z.strictObject({
        status: z.literal(true),
        message: z.string(),
        data: z.array(reply.schema()),
        pagination: pagination(),
      });
  }
}
