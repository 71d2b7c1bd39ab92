import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * A JSON answer, as `c.json()` would send it, with its text kept on the context for the request journal: the
 * journal holds the string that was sent rather than serialising the answer again when it is read.
 */
export function jsonAnswer(c: Context<AppEnv>, body: unknown, status: number): Response {
  const text = JSON.stringify(body);
  c.set('answer', text);
  return c.body(text, status as ContentfulStatusCode, { 'Content-Type': 'application/json' });
}

/**
 * The error envelope: `{status: false, message, data: null}`, plus `errors` on validation failures,
 * `errorCode` and the references in `data` on a failed transfer, and `waiting` on a drain that gave up.
 */
export function errorBody(
  message: string,
  errors?: FieldError[],
  errorCode?: string,
  waiting?: object,
  data?: object,
) {
  const body: {
    status: false;
    message: string;
    data: object | null;
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
