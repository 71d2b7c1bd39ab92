import { STATUS_CODES } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { CustomAnswer } from '../contract/scenarios.js';
import type { Deps } from '../deps.js';
import { ApiError, type ErrorStatus } from '../domain/errors.js';
import type { Hit, Needs } from '../scenarios/controller.js';
import type { RequestParts } from '../scenarios/matcher.js';
import { limit } from './body-limit.js';
import { customAnswerOf, faultStandIn, isPlainError, sendsNoAnswer } from './custom-answer.js';
import type { AppEnv, RequestEnv } from './env.js';
import { ANSWER_TEXT, type errorBody, jsonAnswer, type WithAnswerText } from './envelope.js';
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
const NOBODY: { clientId?: string; businessId?: string; signingIn?: string } = {};

/**
 * Whose count a request joins: where a rule is scoped to a client, each client's requests count apart, so that
 * one test's `times` and `probability` draws do not move with what a parallel test sent; else everyone's together.
 */
const countedFor = (party: { clientId?: string }) =>
  party === NOBODY ? '' : `${party.clientId ?? '(nobody)'} `;

/** How a request no route answers counts among the requests to a route. */
export const NO_ROUTE = '(no route)';

/** What the rules make of a request before its route: nothing (go on), an answer, or a wait for either. */
type Outcome = Response | undefined;

/**
 * The scenario rules on an API request, before anything else looks at it: a delay, an answer of their own (a
 * custom answer, or the stand-in of a fault that sends none), a transport fault for the front to play out on the
 * route's answer (`facts.fault`), or, at once, undefined when no rule is for it. `route` is the route as
 * registered (`/api/v1/.../bulk-transfer/:id`), so that requests to one route count together whatever ids their
 * paths hold; `bound`, the route's bound on its body, within which a custom answer's templates read it.
 */
function scenarioRules(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock' | 'config'>,
  route: string,
  bound: MiddlewareHandler<AppEnv> | undefined,
): Outcome | Promise<Outcome> {
  const chosen = chosenScenario(c, deps);
  if (chosen === undefined && !deps.scenarios.has('http')) return undefined;
  const needs = deps.scenarios.needs('http', chosen);
  // A rule that reads the body (`match.body`), or counts a sign-in for the client whose email it names, reads it
  // first, within the route's own bound: a body the route would refuse gets the route's refusal.
  const readFirst =
    c.env.facts.requestText === undefined &&
    c.req.method !== 'GET' &&
    (needs.body || (needs.signIn && c.req.path.endsWith(SIGN_IN)));
  if (!readFirst) return decide(c, deps, route, bound, chosen, needs);
  const read = (bound ?? limit(deps.config.bodyLimit))(c, async () => {
    c.env.facts.requestText = await c.req.text();
  });
  return Promise.resolve(read).then((refused) =>
    refused instanceof Response ? refused : decide(c, deps, route, bound, chosen, needs),
  );
}

/** The sign-in path: a request of it names its client by the email in its body. */
const SIGN_IN = '/auth/signin';

/** The parts of the request a rule matches on: its headers, its query, and its JSON body once read. */
function requestParts(c: Context<AppEnv>): RequestParts {
  let body: unknown;
  let parsed = false;
  return {
    header: (name) => header(c, name),
    query: (name) => c.req.query(name),
    body: () => {
      if (!parsed) {
        parsed = true;
        body = jsonOrNothing(c.env.facts.requestText);
      }
      return body;
    },
  };
}

/** A JSON text parsed; undefined for none, or for text that is not JSON. */
function jsonOrNothing(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whose request it is, as a scoped or counting rule asks; for a sign-in, also the client its email names. */
function partyOf(
  c: Context<AppEnv>,
  needs: Needs,
): { clientId?: string; businessId?: string; signingIn?: string } {
  const party = c.env.world.auth.partyOf(c);
  if (!needs.signIn || party.clientId !== undefined || !c.req.path.endsWith(SIGN_IN)) return party;
  const body = jsonOrNothing(c.env.facts.requestText);
  const email = body !== null && typeof body === 'object' ? (body as { email?: unknown }).email : undefined;
  if (typeof email !== 'string') return party;
  const signingIn = c.env.world.deps.store.where('users', 'email', email.toLowerCase())[0]?.clientId;
  return signingIn === undefined ? party : { ...party, signingIn };
}

/** The rules on the request once what they read is there (see `scenarioRules`). */
function decide(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock' | 'config'>,
  route: string,
  bound: MiddlewareHandler<AppEnv> | undefined,
  chosen: string | undefined,
  needs: Needs,
): Outcome | Promise<Outcome> {
  // Keyed on the request's place among the requests to its method and route, not on its (random) id.
  const subject = `${c.req.method} ${route}`;
  const party = needs.party ? partyOf(c, needs) : NOBODY;
  const ordinal = deps.scenarios.ordinal(`http:${countedFor(party)}${subject}`, chosen);
  const key = `${subject} ${ordinal}`;
  const matched = deps.scenarios.matchAll(
    {
      on: 'http',
      clientId: party.clientId,
      businessId: party.businessId,
      signingIn: party.signingIn,
      method: c.req.method,
      path: c.req.path,
      key,
      request: requestParts(c),
      overridesOnly: c.env.facts.overridesOnly,
    },
    chosen,
    (fired) => {
      c.env.facts.scenario = fired;
    },
  );
  if (matched.afterCommit) loseAfterCommit(c, deps, matched.afterCommit, chosen, key, bound ?? null);
  if (matched.hit === null) return undefined;
  if (matched.admitsInMs !== undefined) c.env.facts.retryAfter = retryAfterSeconds(matched.admitsInMs);
  const { effect } = matched.hit;
  const rule = matched.hit.rule.rule;
  const { http: answer, fault } = effect;
  if (fault) c.env.facts.fault = fault;
  const outcome = (): Outcome | Promise<Outcome> => {
    if (fault && sendsNoAnswer(fault)) return faultStandIn(fault);
    if (!answer) return undefined;
    // The plain envelope of an error is an error like the route's own: the `error` rules still shape it.
    if (isPlainError(answer)) throw new ApiError(answer.status as ErrorStatus, plainMessage(answer));
    const draw = { seed: deps.scenarios.seed(chosen), key: `${rule} ${key}` };
    return customAnswerOf(c, answer, draw, bound ?? limit(deps.config.bodyLimit));
  };
  const wait = effect.delayMs ?? answer?.delayMs;
  if (wait) return deps.clock.sleep(wait).then(outcome);
  return outcome();
}

/** The operations that send money, whose `transfer` rules may fail a call before it goes upstream. */
const SENDS_MONEY: ReadonlySet<string> = new Set(['transfer', 'anonymousTransfer']);

/**
 * With `--upstream`, a transfer the tester's `transfer` rules fail (`fail`, after a `delayMs`) is answered here as the
 * bank answers a refused transfer, 400 with the failure's message, and never forwarded; a rule with `after:
 * "commit"` lets it go upstream and loses the real bank's answer. Resolves to nothing when the call goes upstream.
 */
export async function transferRulesFirst(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock' | 'config'>,
  operationId: string | undefined,
  bound: MiddlewareHandler<AppEnv>,
): Promise<Response | undefined> {
  if (operationId === undefined || !SENDS_MONEY.has(operationId) || !deps.scenarios.has('transfer'))
    return undefined;
  const { facts } = c.env;
  if (facts.requestText === undefined) {
    const refused = await bound(c, async () => {
      facts.requestText = await c.req.text();
    });
    if (refused instanceof Response) return refused;
  }
  const body = jsonOrNothing(facts.requestText);
  const given = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof given[key] === 'string' ? (given[key] as string) : undefined);
  const party = c.env.world.auth.partyOf(c);
  const ordinal = deps.scenarios.ordinal(`transfer:${party.businessId ?? ''}`);
  const key = `transfer ${ordinal}`;
  const matched = deps.scenarios.matchAll(
    {
      on: 'transfer',
      ...party,
      accountNumber: text('receiverAccountNumber'),
      bankCode: text('receiverBankCode'),
      amount: Number(given.amount),
      nthInBusiness: ordinal + 1,
      key,
      reference: text('retrievalReference'),
      narration: text('narration'),
      overridesOnly: facts.overridesOnly,
    },
    undefined,
    (fired) => {
      facts.scenario = fired;
    },
  );
  if (matched.afterCommit) loseAfterCommit(c, deps, matched.afterCommit, undefined, key, null);
  const effect = matched.hit?.effect;
  if (effect?.delayMs) await deps.clock.sleep(effect.delayMs);
  if (effect?.fail) throw new ApiError(400, effect.fail.errorMessage);
  return undefined;
}

/** `Retry-After` of a window that admits the call in `ms`: whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A rule with `after: "commit"` fired for the request: the call goes on as if it had not, and once its answer is
 * ready the client gets the rule's fault or answer instead (`afterTheCommit`). `key` is the event the rule fired on
 * (its `{{uuid}}`s are drawn from it); `bound`, the route's bound on its body, within which templates read it.
 */
export function loseAfterCommit(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios'>,
  { effect, rule }: Hit,
  chosen: string | undefined,
  key: string,
  bound: MiddlewareHandler<AppEnv> | null,
): void {
  const answer = effect.http;
  const draw = { seed: deps.scenarios.seed(chosen), key: `${rule.rule} ${key}` };
  c.env.facts.afterCommit = {
    fault: effect.fault,
    answer: answer && (() => customAnswerOf(c, answer, draw, bound)),
    delayMs: effect.delayMs ?? answer?.delayMs ?? 0,
  };
}

/**
 * The answer a request gets where a rule lost it after the commit: the committed one kept for the journal, then,
 * after the rule's delay, the rule's fault (played out by the front on the answer it is given) or its answer.
 */
export async function afterTheCommit(env: RequestEnv, res: Response): Promise<Response> {
  const { facts } = env;
  const lost = facts.afterCommit;
  if (lost === undefined) return res;
  facts.afterCommit = undefined;
  facts.committed = { status: res.status, text: (res as WithAnswerText)[ANSWER_TEXT] ?? null };
  if (lost.delayMs > 0) await env.world.deps.clock.sleep(lost.delayMs);
  if (lost.fault) {
    facts.fault = lost.fault;
    if (sendsNoAnswer(lost.fault)) return faultStandIn(lost.fault);
  }
  return lost.answer ? lost.answer() : res;
}

/** An error answer's message: the rule's, else the status's reason phrase. */
const plainMessage = (answer: CustomAnswer) =>
  answer.message ?? STATUS_CODES[answer.status] ?? `Status ${answer.status}`;

/**
 * `then` after the scenario rules of the request (`scenarioRules`): at once when none is for it. `bound` is the
 * route's bound on its body (`--body-limit` when not given: a route without a body, or no route).
 */
export function scenarioFirst<T>(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios' | 'clock' | 'config'>,
  route: string,
  then: (c: Context<AppEnv>) => T | Promise<T>,
  bound?: MiddlewareHandler<AppEnv>,
): T | Response | Promise<T | Response> {
  // Asked once a request: with `--upstream`, a call the rules left to the sandbox's own route was asked already.
  if (c.env.facts.rulesAsked) return then(c);
  c.env.facts.rulesAsked = true;
  const outcome = scenarioRules(c, deps, route, bound);
  if (outcome === undefined) return then(c);
  if (outcome instanceof Promise) return outcome.then((answer) => answer ?? then(c));
  return outcome;
}

/**
 * An error answer of `/api/v1` as it goes out, after the first `error` rule that holds for it (its status, whether
 * it is a validation failure, its method and path): with the rule's status (its body unchanged), the rule's custom
 * answer instead, or broken by the rule's transport fault; as it is when no rule holds. Asked once, as the answer is
 * built (`answerError` in `src/app.ts`). A request whose `x-sandbox-scenario` names no ready scenario meets no
 * rule: its answer is the 400 that says so, and must not throw again.
 */
export function withErrorRules(
  c: Context<AppEnv>,
  deps: Pick<Deps, 'scenarios'>,
  body: ReturnType<typeof errorBody>,
  status: number,
): Response | Promise<Response> {
  const requested = requestedScenario(c);
  const chosen = requested !== undefined && deps.scenarios.library.get(requested) ? requested : undefined;
  if (requested !== undefined && chosen === undefined) return jsonAnswer(c, body, status);
  if (chosen === undefined && !deps.scenarios.has('error')) return jsonAnswer(c, body, status);
  // Counted per method and route as registered, like the http rules, so ids in the path do not split the count;
  // a path no route takes counts as `(no route)`.
  const subject = `${c.req.method} ${routePath(c, -1) || NO_ROUTE}`;
  const needs = deps.scenarios.needs('error', chosen);
  const party = needs.party ? partyOf(c, needs) : NOBODY;
  const ordinal = deps.scenarios.ordinal(`error:${countedFor(party)}${subject}`, chosen);
  const key = `${subject} ${ordinal}`;
  const matched = deps.scenarios.matchAll(
    {
      on: 'error',
      clientId: party.clientId,
      businessId: party.businessId,
      signingIn: party.signingIn,
      method: c.req.method,
      path: c.req.path,
      status,
      validation: body.errors !== undefined,
      key,
      request: requestParts(c),
    },
    chosen,
    (fired) => {
      // Where a transfer or http rule fired first, this one replaces it: it shaped the answer last.
      c.env.facts.scenario = fired;
    },
  );
  if (matched.hit === null) return jsonAnswer(c, body, status);
  if (matched.admitsInMs !== undefined) c.env.facts.retryAfter = retryAfterSeconds(matched.admitsInMs);
  const { effect } = matched.hit;
  const rule = matched.hit.rule.rule;
  if (effect.fault) {
    c.env.facts.fault = effect.fault;
    if (sendsNoAnswer(effect.fault)) return faultStandIn(effect.fault);
  }
  if (effect.http) {
    const answer = effect.http;
    const draw = { seed: deps.scenarios.seed(chosen), key: `${rule} ${key}` };
    const send = () => customAnswerOf(c, answer, draw, null);
    return answer.delayMs ? c.env.world.deps.clock.sleep(answer.delayMs).then(send) : send();
  }
  return jsonAnswer(c, body, effect.status ?? status);
}
