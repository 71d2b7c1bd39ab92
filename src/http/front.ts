import type { IncomingMessage, ServerResponse } from 'node:http';
import { getPath } from 'hono/utils/url';
import type { TransportFault } from '../contract/scenarios.js';
import { ApiError } from '../domain/errors.js';
import { WARNING_HEADER } from '../domain/stricter-in-production.js';
import { faultMessage, sendsNoAnswer } from './custom-answer.js';
import { RequestEnv, RequestFacts, type RequestWorld } from './env.js';
import { ANSWER_TEXT, errorAnswer, type WithAnswerText } from './envelope.js';
import { requestHeader } from './headers.js';
import { requestIdOf } from './request-id.js';
import {
  ENTRY_OVERHEAD_BYTES,
  envelopeMessage,
  exceeds,
  NO_WARNINGS,
  type RequestEntry,
} from './request-log.js';
import { FAULT_HEADER, playFault } from './transport-fault.js';
import { unreadBody } from './unread-body.js';

/**
 * What a request comes with besides itself: @hono/node-server's pair, or in process (`app.request()`) nothing, or
 * `recorded: false` for a call of the in-process handle that is the test's own set-up or waiting, not what its app
 * sent (`src/client/in-process.ts`).
 */
export interface Given {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
  recorded?: false;
}

/** The app's own `fetch`: Hono's, given the request's environment (`W`: the app's worlds). */
export type Dispatch<W extends RequestWorld = RequestWorld> = (
  request: Request,
  env: RequestEnv<W>,
) => Response | Promise<Response>;

/** What the front needs besides the app: where an answered request goes, and how much of a body it keeps. */
export interface FrontOptions<W extends RequestWorld> {
  /** The world every request starts in; the app moves one whose path names an isolated sandbox to that one. */
  root: W;
  /**
   * Every answered request, its journal entry made, with the facts it left and the world it was answered in (the
   * journal, the log line).
   */
  answered: (entry: RequestEntry, facts: RequestFacts, world: W) => void;
  /** `--journal-body-limit`: a larger body is counted, not kept. */
  bodyLimit: number;
  /** A failure of `answered` (a journal listener's): logged; the answer still goes out. */
  failed: (error: unknown, entry: RequestEntry) => void;
}

/** The ISO time of the last millisecond asked for: under load many requests are answered in one. */
let lastMs = Number.NaN;
let lastIso = '';
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

/**
 * What stands in front of the whole app, around its `fetch`: the request id (echoed or made, on every answer,
 * errors included) and, once the answer is ready, its journal entry. Outside Hono rather than a middleware: a
 * middleware makes every request go through Hono's chain of promises, while a route that answers at once (a read)
 * then answers within the turn that parsed it. Under @hono/node-server the id goes straight onto Node's response
 * (merged at writeHead); in process (`app.request()`) the id and the warnings are put on the answer's headers.
 */
export function front<W extends RequestWorld>(
  dispatch: Dispatch<W>,
  { root, answered, bodyLimit, failed }: FrontOptions<W>,
) {
  const journal = (entry: RequestEntry, env: RequestEnv<W>) => {
    if (!env.facts.recorded) return;
    try {
      answered(entry, env.facts, env.world);
    } catch (error) {
      failed(error, entry);
    }
  };
  const finish = (
    request: Request,
    env: RequestEnv<W>,
    res: Response,
    unread: Buffer | undefined,
  ): Response | Promise<Response> => {
    // A transport fault of the scenario's: the one rarer path, out of the way of every other answer.
    if (env.facts.fault !== undefined) return faulted(request, env, res, unread, env.facts.fault);
    const entry = journalEntry(request, env, res, unread, bodyLimit);
    const answer = env.outgoing ? res : inProcessHeaders(res, env.facts);
    journal(entry, env);
    return answer;
  };
  /**
   * An answer a scenario's transport fault breaks: over a connection, the fault is played out on it (and the journal
   * says no answer was sent where none was); in process, where there is no connection, what the caller can see of it
   * (see `inProcessFault`).
   */
  const faulted = async (
    request: Request,
    env: RequestEnv<W>,
    res: Response,
    unread: Buffer | undefined,
    fault: TransportFault,
  ): Promise<Response> => {
    const body = sendsNoAnswer(fault) ? Buffer.alloc(0) : await answerBytes(res);
    const { outgoing, facts } = env;
    if (!outgoing) {
      const shown = inProcessFault(fault, res, body);
      const entry = journalEntry(request, env, shown, unread, bodyLimit);
      journal(entry, env);
      return inProcessHeaders(shown, facts);
    }
    // A fault that sends no answer is journaled as no answer: the stand-in the app made in its stead never went out.
    const entry = journalEntry(request, env, sendsNoAnswer(fault) ? null : res, unread, bodyLimit);
    journal(entry, env);
    return playFault(fault, outgoing, res, body);
  };
  // What the route left of the body, settled first where it was still arriving (`unreadBody`).
  const settle = (request: Request, env: RequestEnv<W>, res: Response): Response | Promise<Response> => {
    const { incoming, outgoing } = env;
    const unread = incoming && outgoing ? unreadBody(incoming, outgoing, res, bodyLimit) : undefined;
    return unread instanceof Promise
      ? unread.then((body) => finish(request, env, res, body))
      : finish(request, env, res, unread);
  };
  return (request: Request, given?: Given): Response | Promise<Response> => {
    const started = performance.now();
    const incoming = given?.incoming;
    const outgoing = given?.outgoing;
    const facts = new RequestFacts(requestIdOf(request, incoming), getPath(request), started);
    outgoing?.setHeader('x-request-id', facts.requestId);
    if (given?.recorded === false) facts.recorded = false;
    const env = new RequestEnv(incoming, outgoing, facts, root);
    const res = dispatch(request, env);
    return res instanceof Promise ? res.then((r) => settle(request, env, r)) : settle(request, env, res);
  };
}

/** An answer's body as bytes: the JSON text it keeps for the journal, or read from it. */
async function answerBytes(res: Response): Promise<Buffer> {
  const text = (res as WithAnswerText)[ANSWER_TEXT];
  return text === undefined ? Buffer.from(await res.arrayBuffer()) : Buffer.from(text);
}

/**
 * What a fault looks like in process (`app.request()`), where there is no connection to break: a fault that sends no
 * answer has answered its 502 stand-in already (`faultStandIn`); `truncated` answers 502 too, saying what would have
 * been cut; `slowBody` answers whole (there is nothing to pace). Each with `x-sandbox-fault` naming it.
 */
function inProcessFault(fault: TransportFault, res: Response, body: Buffer): Response {
  const shown =
    fault.kind === 'truncated'
      ? errorAnswer(new ApiError(502, faultMessage(fault, { status: res.status, bytes: body.length })))
      : fault.kind === 'slowBody'
        ? withBody(res, body)
        : res;
  shown.headers.set(FAULT_HEADER, fault.kind);
  return shown;
}

/** `res` again with `body`, which was read out of it: its JSON text kept for the journal as it was. */
function withBody(res: Response, body: Buffer): Response {
  const again: WithAnswerText = new Response(body.length === 0 && res.body === null ? null : body, res);
  const text = (res as WithAnswerText)[ANSWER_TEXT];
  if (text !== undefined) again[ANSWER_TEXT] = text;
  return again;
}

/** In process only: the request id and the warnings onto the answer (every answer of the app has its own headers). */
function inProcessHeaders(res: Response, facts: RequestFacts): Response {
  res.headers.set('x-request-id', facts.requestId);
  for (const warning of facts.warnings ?? NO_WARNINGS) res.headers.append(WARNING_HEADER, warning);
  return res;
}

/**
 * The journal's entry of an answered request: the references the request left in its facts and on its answer, and
 * a check of their sizes against `--journal-body-limit`. Nothing is parsed or serialised here (see `RequestEntry`).
 * `res` is null where no answer went out at all (a transport fault broke the connection first): status 0, and
 * nothing of an answer kept.
 */
function journalEntry(
  request: Request,
  { incoming, facts }: RequestEnv,
  res: Response | null,
  unread: Buffer | undefined,
  bodyLimit: number,
): RequestEntry {
  let requestBody: string | Buffer | null = facts.requestText ?? unread ?? null;
  let requestSize: number | null = facts.bodySize ?? null;
  let requestTruncated = false;
  if (typeof requestBody === 'string' && exceeds(requestBody, bodyLimit)) {
    requestSize = Buffer.byteLength(requestBody);
    requestBody = null;
    requestTruncated = true;
  } else if (requestBody !== null && requestBody.length > bodyLimit) {
    requestSize = requestBody.length;
    requestBody = null;
    requestTruncated = true;
  } else if (requestBody === null && requestSize === null && request.method !== 'GET') {
    // A body never read and not kept: too large to keep, by what it said of its length.
    const length = Number(requestHeader(incoming, request, 'content-length'));
    requestTruncated = length > bodyLimit;
  }
  let answer: string | null = res === null ? null : ((res as WithAnswerText)[ANSWER_TEXT] ?? null);
  let answerSize: number | null = null;
  let answerType: string | null = null;
  let answerMessage: string | null = null;
  let truncated = false;
  if (res === null) {
    // No answer: nothing to describe.
  } else if (answer === null) {
    // An answer of its own (a page, an event stream, a file): its type and, where it says, its size. Only these
    // rarer answers build the response's headers.
    answerType = res.headers.get('content-type');
    const length = res.headers.get('content-length');
    answerSize = length === null ? null : Number(length);
  } else if (exceeds(answer, bodyLimit)) {
    answerSize = Buffer.byteLength(answer);
    answerMessage = envelopeMessage(answer);
    answer = null;
    truncated = true;
  }
  return {
    seq: 0,
    time: isoNow(),
    method: request.method,
    path: facts.path,
    status: res === null ? 0 : res.status,
    durationMs: Math.round((performance.now() - facts.started) * 10) / 10,
    requestId: facts.requestId,
    warnings: facts.warnings ?? NO_WARNINGS,
    url: request.url,
    clientId: facts.caller ? facts.caller.client.id : null,
    businessId: facts.business?.id ?? null,
    scenario: facts.scenario ?? null,
    fault: facts.fault?.kind ?? null,
    upstream: facts.upstream,
    committed: facts.committed ?? null,
    headers: incoming?.headers ?? request.headers,
    rawHeaders: incoming?.rawHeaders,
    requestBody,
    requestSize,
    requestTruncated,
    answer,
    answerSize,
    answerType,
    answerMessage,
    truncated,
    cost: ENTRY_OVERHEAD_BYTES + (requestBody?.length ?? 0) + (answer?.length ?? 0),
  };
}
