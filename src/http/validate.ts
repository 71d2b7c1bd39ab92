import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, type FieldError } from './envelope.js';
import { header } from './headers.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', message: issue.message }));
}

/** Parses `value` with `schema` or throws a 400 whose message names the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, {
    error: (issue) =>
      issue.input === undefined && issue.code === 'invalid_type' ? 'is required' : undefined,
  });
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  const first = errors[0];
  const message = first
    ? `${first.field} ${first.message === 'is required' ? 'is required' : `is invalid: ${first.message}`}`
    : 'Invalid request';
  throw new ApiError(400, message, errors);
}

/**
 * Reads a JSON body and validates it. A body sent with another content type is 415; one that does not parse
 * is 400 `Malformed JSON body`; an empty body with no content type validates as `{}` (so the client hears which
 * fields are required).
 */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const type = header(c, 'content-type');
  const text = await c.req.text();
  let value: unknown = {};
  if (type === undefined && text.trim() === '') value = {};
  else if (type === undefined || !JSON_TYPE.test(type)) {
    throw new ApiError(415, 'Content-Type must be application/json');
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, 'Malformed JSON body');
    }
  }
  return parseInput(schema, value);
}

/** Validates the query string. */
export function queryOf<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseInput(schema, c.req.query());
}
