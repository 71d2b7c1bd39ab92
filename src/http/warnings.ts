import type { Context } from 'hono';
import { WARNING_HEADER } from '../domain/stricter-in-production.js';
import type { AppEnv } from './env.js';

/**
 * Adds a warning to the answer of this request, whatever that answer turns out to be: one `x-sandbox-warning` header
 * per warning, and the journal entry's `warnings`. Under @hono/node-server the header goes straight onto Node's
 * response (merged at writeHead, an error answer included); in process the front middleware copies the warnings
 * onto the response once it is built.
 */
export function warn(c: Context<AppEnv>, ...warnings: (string | null)[]): void {
  for (const warning of warnings) {
    if (warning === null) continue;
    const list = c.get('warnings');
    if (list) list.push(warning);
    else c.set('warnings', [warning]);
    c.env?.outgoing?.appendHeader(WARNING_HEADER, warning);
  }
}

/** In process only (`app.request()`): the request's warnings onto its response. */
export function copyWarnings(c: Context<AppEnv>, warnings: readonly string[]): void {
  if (c.env?.outgoing) return;
  for (const warning of warnings) c.res.headers.append(WARNING_HEADER, warning);
}
