import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FailedTransferData, FieldError } from '../domain/errors.js';

/**
 * The error envelope: `{status: false, message, data: null}`, plus `errors` on validation failures,
 * `errorCode` and the references in `data` on a failed transfer, and `waiting` on a drain that gave up.
 */
export function errorBody(
  message: string,
  errors?: FieldError[],
  errorCode?: string,
  waiting?: object,
  data?: FailedTransferData,
) {
  const body: {
    status: false;
    message: string;
    data: FailedTransferData | null;
    errors?: FieldError[];
    errorCode?: string;
    waiting?: object;
  } = {
    status: false,
    message,
    data: data ?? null,
  };
  if (errors) body.errors = errors;
  if (errorCode !== undefined) body.errorCode = errorCode;
  if (waiting !== undefined) body.waiting = waiting;
  return body;
}

/** The success envelope. */
export function ok<T>(c: Context, message: string, data: T, status: ContentfulStatusCode = 200): Response {
  return c.json({ status: true, message, data }, status);
}

/** The success envelope with no `data` (the spec shows only `status` and `message` for these). */
export function done(c: Context, message: string, status: ContentfulStatusCode = 200): Response {
  return c.json({ status: true, message }, status);
}

/** The success envelope of a list: `data` is the page, with `pagination` beside it. */
export function okPage<T, P>(c: Context, message: string, page: { data: T[]; pagination: P }): Response {
  return c.json({ status: true, message, data: page.data, pagination: page.pagination });
}
