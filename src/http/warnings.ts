import type { Context } from 'hono';
import { WARNING_HEADER } from '../domain/stricter-in-production.js';
import type { AppEnv } from './env.js';

/**
 * Adds a warning to the answer of this request, whatever that answer turns out to be: one `x-sandbox-warning` header
 * per warning, and the journal entry's `warnings`. Under @hono/node-server the header goes straight onto Node's
 * response (merged at writeHead, an error answer included); in process the front (`src/http/front.ts`) puts them
 * on the response once it is built.
 */
export function warn(c: Context<AppEnv>, ...warnings: (string | null)[]): void {
  for (const warning of warnings) {
    if (warning === null) continue;
    const { facts } = c.env;
    if (facts.warnings) facts.warnings.push(warning);
    else facts.warnings = [warning];
    c.env.outgoing?.appendHeader(WARNING_HEADER, warning);
  }
}
