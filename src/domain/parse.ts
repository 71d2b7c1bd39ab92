import type { z } from 'zod';
import { ApiError, type FieldError } from './errors.js';

function fieldErrors(error: z.ZodError, at: readonly PropertyKey[]): FieldError[] {
  return error.issues.map((issue) => ({
    field: [...at, ...issue.path].map(String).join('.') || '(body)',
    message: issue.message,
  }));
}

/**
 * Parses `value` with `schema` or throws a 400 whose message names the first bad field. `at` is where the value
 * sits in the body, for a part checked on its own (a record of a state import).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  at: readonly PropertyKey[] = [],
): z.infer<S> {
  const result = schema.safeParse(value, {
    error: (issue) =>
      issue.input === undefined && issue.code === 'invalid_type' ? 'is required' : undefined,
  });
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, at);
  const first = errors[0];
  const message = first
    ? `${first.field} ${first.message === 'is required' ? 'is required' : `is invalid: ${first.message}`}`
    : 'Invalid request';
  throw new ApiError(400, message, errors);
}

/** Parses JSON text, or throws the 400 every JSON route gives for a body that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
}
