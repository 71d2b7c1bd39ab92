import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import type { AppEnv } from './env.js';
import { ApiError } from './envelope.js';
import { header } from './headers.js';

/** The ready scenario a request picked for itself with `x-sandbox-scenario`; 400 if there is no such one. */
export function chosenScenario(c: Context<AppEnv>, deps: Pick<Deps, 'scenarios'>): string | undefined {
  const name = header(c, 'x-sandbox-scenario');
  if (name === undefined || name === '') return undefined;
  if (!deps.scenarios.library.get(name))
    throw new ApiError(400, `x-sandbox-scenario: no ready scenario named "${name}"`);
  return name;
}
