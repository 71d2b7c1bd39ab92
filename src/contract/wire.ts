import * as z from 'zod';
import { lazy, type Reply } from './kit.js';

// The pieces every wire shape is made of, and the two that frame every answer: the pagination object and the
// error envelope.

/**
 * An instant as `Date.toISOString()` writes it: ISO 8601 in UTC (milliseconds optional), with a four-digit year, as
 * every ISO 8601 consumer expects: the sandbox clock's range ends at 9999-12-31T23:59:59.999Z.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

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

const fieldErrors = () =>
  z
    .array(z.strictObject({ field: z.string(), message: z.string() }))
    .optional()
    .describe('on a validation failure: each bad field');

/**
 * The bank API's error envelope: `data` is null on every error (the bank's docs), plus `errors` on a validation
 * failure. A failed transfer's references and error code are on its ledger entry under `/__sandbox`.
 */
export const errorEnvelope = lazy('ErrorEnvelope', () =>
  z.strictObject({
    status: z.literal(false),
    message: z.string(),
    data: z.null(),
    errors: fieldErrors(),
  }),
);

/**
 * The control API's error envelope: the bank's, with `data` on a request verification that does not hold (409)
 * and `waiting` on a drain that gave up (408).
 */
export const controlErrorEnvelope = lazy('ControlErrorEnvelope', () =>
  z.strictObject({
    status: z.literal(false),
    message: z.string(),
    data: z
      .strictObject({
        count: z.number().int().describe('requests in the journal that match'),
        expected: z.record(z.string(), z.number().int()).describe('`exactly`, `atLeast`, `atMost` as asked'),
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
      })
      .nullable()
      .describe(
        'null, except on a request verification that does not hold (409): the count and the nearest entries',
      ),
    errors: fieldErrors(),
    waiting: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'on a drain that gave up (408): `clock`, `backlog`, `batches` with their open `items`, `deliveries` with `nextAttemptAt` and `dueInMs`',
      ),
  }),
);

/** `{status: true, message}`: a success with nothing more to say. */
export const doneEnvelope = () => z.strictObject({ status: z.literal(true), message: z.string() });

/** `{status: true, message, data}` with `data` of `schema`. */
export const dataEnvelope = <S extends z.ZodType>(schema: S) =>
  z.strictObject({ status: z.literal(true), message: z.string(), data: schema });

/** `{status: true, message, data, pagination}` with `data` a page of `item`s. */
export const pageEnvelope = <S extends z.ZodType>(item: S) =>
  z.strictObject({
    status: z.literal(true),
    message: z.string(),
    data: z.array(item),
    pagination: pagination(),
  });

/** The whole body a success answer carries, as a strict schema: the envelope around the reply's data. */
export function answerSchema(reply: Reply): z.ZodType | undefined {
  switch (reply.kind) {
    case 'raw':
      return reply.schema?.();
    case 'done':
      return doneEnvelope();
    case 'data':
      return dataEnvelope(reply.schema());
    case 'page':
      return pageEnvelope(reply.schema());
  }
}
