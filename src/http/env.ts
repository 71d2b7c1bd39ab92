import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { RouteAuth, RouteContract } from '../contract/kit.js';
import type { FiredRule, TransportFault } from '../contract/scenarios.js';
import type { Deps } from '../deps.js';
import type { BusinessRecord, ClientRecord, UserRecord } from '../domain/records.js';
import type { RoleName } from '../domain/roles.js';

/** Who is calling, once scheme A or B has accepted the credentials. */
export interface Caller {
  client: ClientRecord;
  /** The signed-in user (scheme A); null for the API key pair (scheme B). */
  user: UserRecord | null;
  role: RoleName;
}

/** What the client gets in place of the committed answer: a transport fault, a custom answer, or both, maybe later. */
export interface LostAnswer {
  fault: TransportFault | undefined;
  /** The rule's custom answer, rendered for this request. */
  answer: (() => Response | Promise<Response>) | undefined;
  /** Wait this long (sandbox clock) before the client gets it. */
  delayMs: number;
}

/** The answer a call committed to: its status and JSON text (null for an answer that is not JSON). */
export interface CommittedAnswer {
  status: number;
  text: string | null;
}

/**
 * What one request learns on its way through the app, for its handlers and for the request journal, which reads
 * it once the answer is ready (`src/http/front.ts`). A plain object of fixed shape in the request's environment
 * rather than Hono's context variables: the journal sits outside Hono, around `app.fetch`, so that a route that
 * answers at once does so without a turn of the microtask queue for each layer in front of it.
 */
export class RequestFacts {
  /** The route that answers, once it is known. */
  route: RouteContract | undefined = undefined;
  /** Set by the route's authentication. */
  caller: Caller | undefined = undefined;
  /** The business of the `businessId` header, where a route takes one. */
  business: BusinessRecord | undefined = undefined;
  /** Where production would refuse what the sandbox accepted (`warn()`): the `x-sandbox-warning` headers. */
  warnings: string[] | undefined = undefined;
  /** The text of a JSON body the route read. */
  requestText: string | undefined = undefined;
  /** The size in bytes of a form body the route read. */
  bodySize: number | undefined = undefined;
  /** The scenario rule that fired for this request. */
  scenario: FiredRule | undefined = undefined;
  /**
   * The transport fault a scenario rule gave the request: the front plays it out on the connection once the answer
   * is ready (`src/http/transport-fault.ts`).
   */
  fault: TransportFault | undefined = undefined;
  /**
   * What a rule with `after: "commit"` gives the client once the call has run as if no rule had fired: the answer
   * is lost after the commit (`loseAfterCommit` in `src/http/scenario.ts`).
   */
  afterCommit: LostAnswer | undefined = undefined;
  /** The answer the call committed to, where a rule gave the client another (`afterCommit`): for the journal. */
  committed: CommittedAnswer | undefined = undefined;
  /** With `--upstream`: only the rules a tester put in front apply to this request, not the start-up ones. */
  overridesOnly = false;
  /** The scenario's `http` rules were asked about this request already (`scenarioFirst`). */
  rulesAsked = false;
  /** Where a rule with `match.over` answered: the seconds a 429 of it says in `Retry-After`. */
  retryAfter: number | undefined = undefined;
  /** The request went to the upstream (`--upstream`) and its answer is the upstream's. */
  upstream = false;
  /** False: the request is left out of the journal (a reset that emptied it: the journal starts after it). */
  journaled = true;
  /**
   * False: a call the in-process handle makes for the test itself (see `Given`), answered but neither journaled nor
   * given a request line.
   */
  recorded = true;

  constructor(
    readonly requestId: string,
    /**
     * The request's path, as Hono routes it (it reads it from here: see `createApp`) and the journal keeps it: inside
     * its world, so `/sandboxes/{id}/api/v1/…` is `/api/v1/…` here, as the root would see it.
     */
    public path: string,
    /** `performance.now()` when the request came in. */
    readonly started: number,
  ) {}
}

/** What the kit asks of a world's credentials' checks (`createAuth`, with its cache of verified tokens). */
export interface Authenticator {
  /** Refuses a request without the credentials `auth` asks for; sets its caller and business in its facts. */
  authenticate(c: Context<AppEnv>, auth: RouteAuth): void;
  /** The client and business a request names, whether or not its credentials hold: what a scenario rule matches. */
  partyOf(c: Context<AppEnv>): { clientId?: string; businessId?: string };
}

/**
 * The sandbox a request belongs to, as the kit reads it: the root one (`/api/v1`, `/__sandbox`), or an isolated one
 * (`/sandboxes/{id}/…`). Everything a request touches is its world's: the state, the clock, the scenario, the journal.
 * What a door's handlers read besides (the engines, the control hooks, the dashboard's feed) is the door's to name,
 * as the type parameter of `AppEnv` and `mountRoutes`: the kit stays below the doors and the worlds.
 */
export interface RequestWorld {
  /** The isolated sandbox's id; null for the root. */
  readonly id: string | null;
  /** What the world's paths start with outside: `''` for the root, `/sandboxes/{id}` for an isolated one. */
  readonly prefix: string;
  readonly deps: Deps;
  readonly auth: Authenticator;
}

/**
 * What every request carries into the app: @hono/node-server's pair (absent in process), its facts and its world.
 *
 * A class, not an object literal: V8 watches each literal's allocation site and, when a run of its objects
 * survives a young-generation collection (50 requests in flight as the server warms up, its young generation
 * still small), allocates that site's objects in the old generation from then on, for good. An environment
 * allocated there points at the request's Node objects; dead at once, it still holds them through every
 * scavenge until the next full collection, so each request's whole graph (Node's message and response, Hono's
 * context, the handler's input) got promoted: three times the promoted bytes, and a third more CPU or worse per
 * read over HTTP, in the runs where the decision fell that way. `new` of a class has no allocation site to tenure.
 */
export class RequestEnv<W extends RequestWorld = RequestWorld> {
  constructor(
    readonly incoming: IncomingMessage | undefined,
    readonly outgoing: ServerResponse | undefined,
    readonly facts: RequestFacts,
    /** The root until the app finds the request's path under `/sandboxes/{id}` (`src/app.ts`). */
    public world: W,
  ) {}
}

/** Hono's environment for the routes of the app: `W` is what they read of their world (the kit's part, at least). */
export type AppEnv<W extends RequestWorld = RequestWorld> = { Bindings: RequestEnv<W> };

/** The caller of a route that authenticated it (scheme A or B). */
export function callerOf(facts: RequestFacts): Caller {
  if (!facts.caller) throw new Error('the route has no authenticated caller');
  return facts.caller;
}
