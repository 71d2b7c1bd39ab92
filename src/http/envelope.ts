import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface FieldError {
  field: string;
  message: string;
}

/** The one error services throw; the app's error handler turns it into the error envelope. */
export class ApiError extends Error {
  constructor(
    public readonly status: ContentfulStatusCode,
    message: string,
    public readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

/** The error envelope: `{status: false, message, data: null}`, plus `errors` on validation failures. */
export function errorBody(message: string, errors?: FieldError[]) {
  return errors ? { status: false, message, data: null, errors } : { status: false, message, data: null };
}

/** The success envelope. */
export function ok<T>(c: Context, message: string, data: T, status: ContentfulStatusCode = 200) {
  return c.json({ status: true, message, data }, status);
}

/** The success envelope with no `data` (the spec shows only `status` and `message` for these). */
export function done(c: Context, message: string, status: ContentfulStatusCode = 200) {
  return c.json({ status: true, message }, status);
}

/** The success envelope of a list: `data` is the page, with `pagination` beside it. */
export function okPage<T, P>(c: Context, message: string, page: { data: T[]; pagination: P }) {
  return c.json({ status: true, message, data: page.data, pagination: page.pagination });
}
