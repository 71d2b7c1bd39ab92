import * as z from 'zod';
import type { LazySchema } from '../../src/contract/kit.js';
import { pagination } from '../../src/contract/wire.js';

// What a test reads from an answer, typed by the route's own response schema and checked against it at run time:
// a test never states a response shape of its own, and never casts one.

/** An answer as `call` gives it (in process or from the real process). */
export interface Answered {
  status: number;
  body: Record<string, unknown>;
}

/** The pagination object of a list answer. */
export type PaginationView = z.infer<ReturnType<typeof pagination>>;

/** A page of a list answer: its items and its pagination object. */
export interface PageView<T> {
  data: T[];
  pagination: PaginationView;
}

/** A fetch `Response` read as an answer, for the tests that call the sandbox the way a user's code would. */
export async function answerOf(res: Response): Promise<Answered> {
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function parsed<S extends z.ZodType>(schema: S, value: unknown, what: string, res: Answered): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // Say what came back: a test that reads the data of a refusal fails here, and the body says why.
  throw new Error(
    `${what} of the ${res.status} answer does not fit: ${z.prettifyError(result.error)}\n` +
      JSON.stringify(res.body).slice(0, 500),
  );
}

/** `data` of an answer, parsed with the route's response schema (`dataOf(res, bulkTransferWithItems)`). */
export function dataOf<S extends z.ZodType>(res: Answered, schema: LazySchema<S>): z.output<S> {
  return parsed(schema(), res.body.data, `data (${schema.schemaName})`, res);
}

/** `data` and `pagination` of a list answer, each item parsed with `item`, the route's item schema. */
export function pageOf<S extends z.ZodType>(res: Answered, item: LazySchema<S>): PageView<z.output<S>> {
  return {
    data: parsed(z.array(item()), res.body.data, `data (${item.schemaName}[])`, res),
    pagination: parsed(pagination(), res.body.pagination, 'pagination', res),
  };
}

/** The whole body of an answer that is not the envelope (`/__sandbox/health`, `/__sandbox/state`), parsed. */
export function bodyOf<S extends z.ZodType>(res: Answered, schema: LazySchema<S>): z.output<S> {
  return parsed(schema(), res.body, `the body (${schema.schemaName})`, res);
}
