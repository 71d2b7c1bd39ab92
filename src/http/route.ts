import type { Context } from 'hono';
import type * as z from 'zod';
import type { Answer, Params, RouteContract } from '../contract/kit.js';
import type { Actor } from '../domain/actor.js';
import type { BusinessRecord } from '../domain/records.js';
import type { AppEnv, Caller } from './env.js';

// A route as a door mounts it: its contract (`src/contract/`), joined to the handler that answers it, typed over the
// runtime its door gives (the bank's API: the deps and the engines; the control API: those and the sandbox's own
// controls). Nothing here knows a door: each gives its runtime to `implementer`.

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A multipart form as parsed, not yet validated: each field's text or file, or all of them where it repeats. */
export type FormFields = Record<string, string | File | (string | File)[]>;

/** A field of contract `C`, or undefined where the contract does not have it. */
type Field<C, K extends keyof RouteContract> = K extends keyof C ? Exclude<C[K], undefined> : undefined;

/** What a handler is given: its door's runtime, the parsed input, and who called. */
export type HandlerInput<C extends RouteContract, R> = R & {
  c: Context<AppEnv>;
  params: Params<C['path']>;
  /** The JSON body, validated (undefined for a route that takes none); a form route's fields, parsed. */
  body: Field<C, 'form'> extends z.ZodType ? FormFields : Parsed<Field<C, 'body'>>;
  /** The query, validated. */
  query: Parsed<Field<C, 'query'>>;
  /** The body as text, for a route that reads it itself (`text: true`): a state import. */
  text: Field<C, 'text'> extends true ? string : undefined;
  /** The caller, once scheme A or B accepted it. */
  caller: C['auth'] extends { scheme: 'A' | 'B' } ? Caller : undefined;
  /** The business of the `businessId` header. */
  business: C['auth'] extends { scheme: 'B' } | { scheme: 'A'; business: 'header' }
    ? BusinessRecord
    : undefined;
  /** The acting user, for the audit log. */
  actor: () => Actor;
};

/** A route as a door mounts it over its runtime `R`: its contract, and its handler, types erased. */
export interface Route<R = unknown> extends RouteContract {
  // biome-ignore lint/suspicious/noExplicitAny: the handler's input was checked where the route was implemented.
  handle: (input: R & any) => unknown;
}

/**
 * The implementer of a door whose runtime is `R`: it joins a contract to its handler, whose input is typed from the
 * contract and the runtime, and whose answer must fit the contract's responses.
 */
export function implementer<R>() {
  return <C extends RouteContract>(
    route: C,
    // NoInfer: the contract alone fixes C; the answer is checked against it, never widened to infer it.
    handle: NoInfer<(input: HandlerInput<C, R>) => Answer<C['responses']> | Promise<Answer<C['responses']>>>,
    // Its properties as they are, not their values: a deferred request schema stays a getter, built on first use.
  ): Route<R> => Object.defineProperties({ handle }, Object.getOwnPropertyDescriptors(route)) as Route<R>;
}
