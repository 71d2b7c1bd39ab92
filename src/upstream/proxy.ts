import type { Context } from 'hono';
import type { RouteContract } from '../contract/kit.js';
import { API_PREFIX } from '../contract/mounts.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import { ANSWER_TEXT, errorAnswer, type WithAnswerText } from '../http/envelope.js';
import { checkAnswer, type Finding } from './check.js';
import type { DriftReport } from './drift.js';
import { routeMatcher } from './route-match.js';

// `--upstream URL`: every `/api/v1` request goes to the real bank as it was sent, and its answer comes back to the
// app as the bank gave it, plus the sandbox's `x-request-id`. Nothing of the sandbox applies to it (no scenario, no
// auth, no validation, no state); the answer is only held against the sandbox's own route for that method and
// path, and the differences go to the drift report.

/**
 * Headers that belong to one connection (RFC 9110, 7.6.1), and those the forwarding sets itself: `host` names the
 * upstream, the length is the body's as sent, and the answer's body comes back decoded (so neither its encoding nor
 * its length stands).
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
const ANSWER_DROPPED = new Set([...REQUEST_DROPPED, 'content-encoding', 'x-request-id']);

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

/** Why a call to the upstream failed, in a few words: a timeout, or the connection's error code. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
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
  report: DriftReport;
  routes: readonly RouteContract[];
}

/** The handler that answers every `/api/v1` request from the upstream. */
export function upstreamProxy({ base, shownAs, timeoutMs, report, routes }: UpstreamOptions) {
  const match = routeMatcher(routes);
  const target = base.replace(/\/+$/, '');
  return async (c: Context<AppEnv>): Promise<Response> => {
    const { facts } = c.env;
    facts.upstream = true;
    const method = c.req.method;
    const url = new URL(c.req.url);
    const rest = facts.path.slice(API_PREFIX.length);
    const route = match(method, rest);
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const body = hasBody ? Buffer.from(await c.req.arrayBuffer()) : undefined;
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
    let answer: Response;
    try {
      answer = await fetch(`${target}${rest}${url.search}`, {
        method,
        headers: forwarded(c.req.raw.headers, REQUEST_DROPPED),
        body: body && body.length > 0 ? body : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const why = failureOf(error, timeoutMs);
      findings.push({ kind: 'upstream-error', at: 'connection', expected: 'an answer', seen: why });
      record(undefined);
      return errorAnswer(new ApiError(502, `The upstream ${shownAs} did not answer: ${why}`));
    }
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await answer.arrayBuffer());
    } catch (error) {
      const why = failureOf(error, timeoutMs);
      findings.push({ kind: 'upstream-error', at: 'body', expected: 'a whole answer', seen: why });
      record(answer.status);
      return errorAnswer(new ApiError(502, `The upstream ${shownAs} broke off its answer: ${why}`));
    }
    const contentType = answer.headers.get('content-type');
    const text = isJson(contentType) || bytes.length === 0 ? bytes.toString('utf8') : undefined;
    if (route)
      findings.push(...checkAnswer(route, answer.status, text ? parsed(text) : undefined, contentType));
    record(answer.status);
    const headers = forwarded(answer.headers, ANSWER_DROPPED);
    const upstreamId = answer.headers.get('x-request-id');
    if (upstreamId !== null) headers.set('x-upstream-request-id', upstreamId);
    // A status with no body (204, 304) takes none.
    const empty = answer.status === 204 || answer.status === 304 || method === 'HEAD';
    const res: WithAnswerText = new Response(empty ? null : bytes, { status: answer.status, headers });
    if (text !== undefined && text.length > 0) res[ANSWER_TEXT] = text;
    return res;
  };
}
