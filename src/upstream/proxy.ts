import type { Context } from 'hono';
import type { BodySettings, RouteContract } from '../contract/kit.js';
import { API_PREFIX } from '../contract/mounts.js';
import { ApiError } from '../domain/errors.js';
import { credentialValues, maskedText } from '../domain/redact.js';
import { limit } from '../http/body-limit.js';
import type { AppEnv } from '../http/env.js';
import { ANSWER_TEXT, errorAnswer, type WithAnswerText } from '../http/envelope.js';
import { checkAnswer, type Finding } from './check.js';
import type { DriftReport } from './drift.js';
import { exchange, type UpstreamFailure } from './exchange.js';
import type { UpstreamExchange } from './recording.js';
import { routeMatcher } from './route-match.js';
import { apiTail, originForm, pathOf } from './target.js';

// `--upstream URL`: every `/api/v1` request goes to the real bank as it was sent, and its answer comes back to the
// app as the bank gave it, plus the sandbox's `x-request-id`. Nothing of the sandbox applies to it (no scenario, no
// auth, no validation, no state); the answer is only held against the sandbox's own route for that method and
// path, and the differences go to the drift report.

/**
 * Headers that belong to one connection (RFC 9110, 7.6.1), and those the forwarding sets itself: `host` names the
 * upstream, and the length is the body's as sent (an answer's as the app gets it, decoded or not).
 */
const REQUEST_DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);
const ANSWER_DROPPED = new Set([...REQUEST_DROPPED, 'x-request-id']);
/** An answer whose body the proxy decoded: its encoding no longer holds. */
const DECODED_DROPPED = new Set([...ANSWER_DROPPED, 'content-encoding']);

/** A header list less `dropped` and whatever its `connection` header names. */
function forwarded(headers: Headers, dropped: ReadonlySet<string>): Headers {
  const named = new Set(
    (headers.get('connection') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const out = new Headers();
  for (const [name, value] of headers) if (!dropped.has(name) && !named.has(name)) out.append(name, value);
  return out;
}

const isJson = (contentType: string | null) => /[/+]json\b/i.test(contentType ?? '');

/** The body as JSON, or undefined where it is not. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An answer's headers from Node's raw list, so that repeated ones (`set-cookie`) stay apart. */
function headersOf(raw: readonly string[]): Headers {
  const out = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) out.append(raw[i] ?? '', raw[i + 1] ?? '');
  return out;
}

/** The upstream's URL as the report and the log show it: no userinfo, no query. */
export function shownUpstream(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

export interface UpstreamOptions {
  /** The upstream's base URL, ending in `/api/v1`. */
  base: string;
  /** What the report and the 502 name it: the base without userinfo or query. */
  shownAs: string;
  timeoutMs: number;
  /** `--upstream-max-body`: the most bytes an answer may have after decoding; past it the app gets 502. */
  maxBody: number;
  report: DriftReport;
  routes: readonly RouteContract[];
  /** The sandbox's bounds on a request body (`--body-limit`, `--upload-limit`): a forwarded body is read within them. */
  bodySettings: BodySettings;
  /** `--record`: hears every whole answer of the upstream. */
  record?: (exchange: UpstreamExchange) => void;
}

/** The handler that answers every `/api/v1` request from the upstream. */
export function upstreamProxy({
  base,
  shownAs,
  timeoutMs,
  maxBody,
  report,
  routes,
  bodySettings,
  record: recordAnswer,
}: UpstreamOptions) {
  const match = routeMatcher(routes);
  const baseUrl = new URL(base);
  return async (c: Context<AppEnv>): Promise<Response> => {
    const { facts } = c.env;
    facts.upstream = true;
    const method = c.req.method;
    const rest = facts.path.slice(API_PREFIX.length);
    // The bytes that go upstream: those the app sent (the request line over a socket, the URL in process).
    const sent = originForm(c.env.incoming?.url ?? c.req.url);
    const target = apiTail(sent);
    if (target === undefined)
      throw new ApiError(
        400,
        `The path ${maskedText(pathOf(sent))} is under /api/v1 only once its dot segments are resolved: a path goes upstream only as it was sent, and as sent this one would leave the upstream's base path`,
      );
    const route = match(method, rest);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    // The body is held whole before it goes upstream: read within the bound the sandbox's own route would apply
    // (`--body-limit`, or the route's larger one: a registration's uploads, a batch), and past it answered 413 as
    // every route answers a body too large, without calling the upstream. The bound protects the sandbox's memory;
    // it says nothing of the bank's rules, so it is always the plain 413, never a route's own words for it.
    let body: Buffer | undefined;
    // A rule that matched on the body read it first, within the same bound: it is read from there.
    if (hasBody && facts.requestText !== undefined) body = Buffer.from(await c.req.arrayBuffer());
    else if (hasBody) {
      const bytes = route?.bodyLimit?.(bodySettings).bytes ?? bodySettings.bodyLimit;
      await limit(bytes)(c, async () => {
        body = Buffer.from(await c.req.arrayBuffer());
      });
    }
    if (body !== undefined && body.length > 0) {
      if (isJson(c.req.header('content-type') ?? null)) facts.requestText = body.toString('utf8');
      else facts.bodySize = body.length;
    }
    const findings: Finding[] = [];
    if (!route)
      findings.push({
        kind: 'unknown-route',
        at: 'path',
        expected: 'a route the sandbox emulates',
        seen: `${method} ${rest}`,
      });
    const record = (status: number | undefined) =>
      report.record({ method, path: rest, route, status, findings, requestId: facts.requestId });
    const outcome = await exchange({
      base: baseUrl,
      method,
      target,
      headers: Object.fromEntries(forwarded(c.req.raw.headers, REQUEST_DROPPED)),
      body: body && body.length > 0 ? body : undefined,
      timeoutMs,
      maxBody,
    });
    if (!outcome.ok) {
      const { finding, status, message } = failureAnswer(outcome.failure, shownAs, maxBody);
      findings.push(finding);
      record(status);
      return errorAnswer(new ApiError(502, message));
    }
    const answer = outcome.answer;
    const given = headersOf(answer.rawHeaders);
    const headers = forwarded(given, answer.decoded ? DECODED_DROPPED : ANSWER_DROPPED);
    const contentType = headers.get('content-type');
    const bytes = answer.body;
    // A body still encoded (a coding the proxy does not know) is not text to check.
    const readable = answer.decoded || !headers.has('content-encoding');
    const text = readable && (isJson(contentType) || bytes.length === 0) ? bytes.toString('utf8') : undefined;
    if (route)
      findings.push(...checkAnswer(route, answer.status, text ? parsed(text) : undefined, contentType));
    record(answer.status);
    recordAnswer?.({
      method,
      path: facts.path,
      status: answer.status,
      text,
      credentials: text === undefined || text === '' ? [] : credentialValues(c.req.raw.headers),
    });
    const upstreamId = given.get('x-request-id');
    if (upstreamId !== null) headers.set('x-upstream-request-id', upstreamId);
    // A status with no body (204, 205, 304) takes none.
    const empty = NO_BODY.has(answer.status) || method === 'HEAD';
    const res: WithAnswerText = new Response(empty ? null : bytes, { status: answer.status, headers });
    if (text !== undefined && text.length > 0) res[ANSWER_TEXT] = text;
    return res;
  };
}

/** Statuses whose answer has no body: a `Response` refuses one. */
const NO_BODY = new Set([204, 205, 304]);

/** What the report and the app are told of a call that has no answer to give. */
function failureAnswer(
  failure: UpstreamFailure,
  shownAs: string,
  maxBody: number,
): { finding: Finding; status: number | undefined; message: string } {
  switch (failure.kind) {
    case 'no-answer':
      return {
        finding: { kind: 'upstream-error', at: 'connection', expected: 'an answer', seen: failure.why },
        status: undefined,
        message: `The upstream ${shownAs} did not answer: ${failure.why}`,
      };
    case 'broken':
      return {
        finding: { kind: 'upstream-error', at: 'body', expected: 'a whole answer', seen: failure.why },
        status: failure.status,
        message: `The upstream ${shownAs} broke off its answer: ${failure.why}`,
      };
    case 'too-large':
      return {
        finding: {
          kind: 'upstream-error',
          at: 'body',
          expected: `at most ${maxBody} bytes (--upstream-max-body)`,
          seen: `more than ${maxBody} bytes`,
        },
        status: failure.status,
        message: `The upstream ${shownAs} answered more than ${maxBody} bytes (--upstream-max-body): the answer was cut off`,
      };
    case 'bad-status':
      return {
        finding: {
          kind: 'upstream-error',
          at: 'status',
          expected: 'a final status from 200 to 599',
          seen: String(failure.status),
        },
        status: failure.status,
        message: `The upstream ${shownAs} answered status ${failure.status}, which no answer to the app can have`,
      };
  }
}
