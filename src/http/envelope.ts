import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, FieldError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * Where the request journal finds the JSON text of an answer: a property of the `Response`, which the journal gets
 * anyway (the request body's text is one of the request's facts, `RequestFacts.requestText`).
 */
export const ANSWER_TEXT: unique symbol = Symbol('answerText');

export type WithAnswerText = Response & { [ANSWER_TEXT]?: string };

/**
 * A JSON answer, as `c.json()` would send it, its text kept on the response for the request journal: the journal
 * holds the string that was sent rather than serialising the answer again when it is read.
 */
export function jsonAnswer(c: Context<AppEnv>, body: unknown, status: number): Response {
  const text = JSON.stringify(body);
  const res: WithAnswerText = c.body(text, status as ContentfulStatusCode, {
    'Content-Type': 'application/json',
  });
  res[ANSWER_TEXT] = text;
  return res;
}

/**
 * An error answer made outside Hono, for a request refused before it reaches the app: the envelope as JSON, its
 * text kept for the journal as `jsonAnswer` keeps it.
 */
export function errorAnswer(error: ApiError): Response {
  const text = JSON.stringify(errorBody(error.message, error.errors));
  const res: WithAnswerText = new Response(text, {
    status: error.status,
    headers: { 'Content-Type': 'application/json' },
  });
  res[ANSWER_TEXT] = text;
  return res;
}

/**
 * The error envelope: `{status: false, message, data: null}`, plus `errors` on validation failures; on the control
 * API, `data` of a verification that does not hold and `waiting` of a drain that gave up.
 */
export function errorBody(message: string, errors?: FieldError[], waiting?: object, data?: object) {
  const body: {
    status: false;
    message: string;
    data: object | null;
    errors?: FieldError[];
    waiting?: object;
  } = {
    status: false,
    message,
    data: data ?? null,
  };
  if (errors) body.errors = errors;
  if (waiting !== undefined) body.waiting = waiting;
  return body;
}
