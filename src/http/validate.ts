import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { parseInput, parseJson } from '../domain/parse.js';
import type { AppEnv } from './env.js';
import { header } from './headers.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads the text of a JSON body. A body sent with another content type is 415; an empty body with no content type
 * reads as `{}` (so the client hears which fields are required).
 */
export async function jsonText(c: Context<AppEnv>): Promise<string> {
  const type = header(c, 'content-type');
  const text = await c.req.text();
  // Kept as a reference for the request journal, which parses it only when someone reads it.
  c.env.facts.requestText = text;
  if (type === undefined && text.trim() === '') return '{}';
  if (type === undefined || !JSON_TYPE.test(type))
    throw new ApiError(415, 'Content-Type must be application/json');
  return text;
}

/**
 * Reads a JSON body and validates it: 415 for another content type (see `jsonText`), 400 `Malformed JSON body`
 * for one that does not parse, 400 naming the first bad field for one that does not validate.
 */
export async function jsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.infer<S>> {
  return parseInput(schema, parseJson(await jsonText(c)));
}
