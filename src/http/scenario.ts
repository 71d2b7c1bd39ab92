import type { Context } from 'hono';
import { routePath } from 'hono/route';
import type { Deps } from '../deps.js';
import { ApiError, type ErrorStatus } from '../domain/errors.js';
import type { AppEnv } from './env.js';
import { header } from './headers.js';

/** The name the request's `x-sandbox-scenario` gives, if it gives one. */
function requestedScenario(c: Context<AppEnv>): string | undefined {
  const name = header(c, 'x-sandbox-scenario');
  return name === '' ? undefined : name;
}

/** The ready scenario a request picked for itself with `x-sandbox-scenario`; 400 if there is no such one. */
export function chosenScenario(c: Context<AppEnv>, deps: Pick<Deps, 'scenarios'>): string | undefined {
  const name = requestedScenario(c);
  if (name === undefined) return undefined;
  if (!deps.scenarios.library.get(name))
    throw new ApiError(400, `x-sandbox-scenario: ${deps.scenarios.library.unknown(name)}`);
  return name;
}

/** The party of a request no scoped rule asks about: nobody is looked up. */
const NOBODY = {};

/** How a request no route answers counts among the requests to a route. */
export const NO_ROUTE = '(no route)';

/**
 * The scenario rules on an API request, before anything else looks at it: a delay (the promise), or an answer of
 * their own (thrown as its error); undefined, at once, when no rule is for it. `route` is the route as registered
 * (`/api/v1/.../bulk-transfer/:id`), so that requests to one route count together whatever ids their paths hold.
 */
function scenarioRules(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock'>,
  route: string,
): Promise<void> | undefined {
  const chosen = chosenScenario(c, deps);
  if (chosen === undefined && !deps.scenarios.has('http')) return undefined;
  // Keyed on the request's place among the requests to its method and route, not on its (random) id.
  const subject = `${c.req.method} ${route}`;
  const ordinal = deps.scenarios.ordinal(`http:${subject}`, chosen);
  const party = deps.scenarios.scoped('http', chosen) ? c.env.world.auth.partyOf(c) : NOBODY;
  const effect = deps.scenarios.check(
    { on: 'http', ...party, method: c.req.method, path: c.req.path, key: `${subject} ${ordinal}` },
    chosen,
    (fired) => {
      c.env.facts.scenario = fired;
    },
  );
  const answer = effect?.http;
  const refuse = () => {
    if (answer) throw new ApiError(answer.status as ErrorStatus, answer.message);
  };
  if (effect?.delayMs) return deps.clock.sleep(effect.delayMs).then(refuse);
  refuse();
  return undefined;
}

/** `then` after the scenario rules of the request (`scenarioRules`): at once when none is for it. */
export function scenarioFirst<T>(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock'>,
  route: string,
  then: (c: Context<AppEnv>) => T | Promise<T>,
): T | Promise<T> {
  const waiting = scenarioRules(c, deps, route);
  return waiting ? waiting.then(() => then(c)) : then(c);
}

/**
 * The status an error answer of `/api/v1` goes out with: that of the first `error` rule that holds for it (its
 * status, whether it is a validation failure, its method and path), else the one it has; its body is left as it
 * is. Asked once, as the answer is built (`answerError` in `src/app.ts`). A request whose `x-sandbox-scenario`
 * names no ready scenario meets no rule: its answer is the 400 that says so, and must not throw again.
 */
export function errorStatus(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios'>,
  status: number,
  validation: boolean,
): number {
  const requested = requestedScenario(c);
  const chosen = requested !== undefined && deps.scenarios.library.get(requested) ? requested : undefined;
  if (requested !== undefined && chosen === undefined) return status;
  if (chosen === undefined && !deps.scenarios.has('error')) return status;
  // Counted per method and route as registered, like the http rules, so ids in the path do not split the count;
  // a path no route takes counts as `(no route)`.
  const subject = `${c.req.method} ${routePath(c, -1) || NO_ROUTE}`;
  const ordinal = deps.scenarios.ordinal(`error:${subject}`, chosen);
  const party = deps.scenarios.scoped('error', chosen) ? c.env.world.auth.partyOf(c) : NOBODY;
  const effect = deps.scenarios.check(
    {
      on: 'error',
      ...party,
      method: c.req.method,
      path: c.req.path,
      status,
      validation,
      key: `${subject} ${ordinal}`,
    },
    chosen,
    (fired) => {
      // Where a transfer or http rule fired first, this one replaces it: it shaped the answer last.
      c.env.facts.scenario = fired;
    },
  );
  return effect?.status ?? status;
}
