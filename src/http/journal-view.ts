import { STATUS_CODES } from 'node:http';
import type { HarView, RequestEntryView, RequestEntryWithCurlView } from '../contract/control/requests.js';
import { redactHeader, redactJson, redactQuery, redactUrl } from '../domain/redact.js';
import { WARNING_HEADER } from '../domain/stricter-in-production.js';
import { curlCommand } from './curl.js';
import type { RequestEntry } from './request-log.js';

// A journal entry as the control API and the dashboard show it: parsed, sized and redacted here, when someone
// reads it, never while the request is answered. It sits beside the journal, below the doors, so that both doors
// show one redaction.

const JSON_TYPE = 'application/json';

/** The request headers, lower-case names, each credential redacted. */
function headersOf(entry: RequestEntry): Record<string, string> {
  const out: Record<string, string> = {};
  const given = entry.headers;
  if (given === null) return out;
  if (given instanceof Headers) {
    for (const [name, value] of given) out[name] = redactHeader(name, value);
    return out;
  }
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    out[name] = redactHeader(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** The query string of the URL, one value per parameter (the first, as the routes read it), redacted. */
function queryOf(url: string): Record<string, string> {
  const mark = url.indexOf('?');
  if (mark === -1) return {};
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(url.slice(mark + 1)))
    if (!(key in params)) params[key] = value;
  return redactQuery(params);
}

/** A kept body as JSON: the parsed value and, redacted, what is shown; undefined when it is not JSON. */
function parsed(text: string): { value: unknown; shown: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return { value, shown: redactJson(value) };
  } catch {
    return undefined;
  }
}

/** What is shown of a JSON body: its text as sent when nothing in it was redacted, else the redacted JSON. */
const shownText = (text: string, body: { value: unknown; shown: unknown }) =>
  body.value === body.shown ? text : JSON.stringify(body.shown);

/** The request side of an entry: its headers, body and sizes. */
function requestOf(entry: RequestEntry, headers: Record<string, string>) {
  const kept = entry.requestBody;
  const text = kept === null ? null : typeof kept === 'string' ? kept : kept.toString('utf8');
  const body = text === null ? undefined : parsed(text);
  let bodySize: number | null;
  if (kept !== null) bodySize = typeof kept === 'string' ? Buffer.byteLength(kept) : kept.length;
  else if (entry.requestSize !== null) bodySize = entry.requestSize;
  else if (headers['content-length'] !== undefined) bodySize = Number(headers['content-length']);
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112, 6.3).
  else bodySize = headers['transfer-encoding'] === undefined ? 0 : null;
  return {
    headers,
    body: body === undefined ? null : body.shown,
    bodySize: Number.isSafeInteger(bodySize) ? bodySize : null,
    contentType: headers['content-type'] ?? null,
    truncated: entry.requestTruncated,
    text: text !== null && body !== undefined ? shownText(text, body) : null,
  };
}

/** The envelope's `message` of a parsed answer, or null for another body. */
function messageOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { status, message } = body as { status?: unknown; message?: unknown };
  return typeof status === 'boolean' && typeof message === 'string' ? message : null;
}

/** The response side of an entry. */
function responseOf(entry: RequestEntry) {
  const text = entry.answer;
  const body = text === null ? undefined : parsed(text);
  const json = text !== null || entry.truncated;
  return {
    status: entry.status,
    message: body === undefined ? entry.answerMessage : messageOf(body.value),
    body: body === undefined ? null : body.shown,
    bodySize: text === null ? entry.answerSize : Buffer.byteLength(text),
    contentType: json ? JSON_TYPE : entry.answerType,
    truncated: entry.truncated,
    text: text !== null && body !== undefined ? shownText(text, body) : null,
  };
}

/** An entry as `GET /__sandbox/requests` shows it. */
export function entryView(entry: RequestEntry): RequestEntryView {
  const headers = headersOf(entry);
  const { text: _request, ...request } = requestOf(entry, headers);
  const { text: _response, ...response } = responseOf(entry);
  return {
    id: String(entry.seq),
    time: entry.time,
    method: entry.method,
    path: entry.path,
    query: queryOf(entry.url),
    status: entry.status,
    durationMs: entry.durationMs,
    requestId: entry.requestId,
    warnings: entry.warnings,
    clientId: entry.clientId,
    businessId: entry.businessId,
    scenario: entry.scenario,
    fault: entry.fault,
    upstream: entry.upstream,
    ...(entry.committed === null ? {} : { committed: committedOf(entry.committed) }),
    request,
    response,
  };
}

/** The answer a call committed to, where a rule lost it after the commit: its status and JSON body, redacted. */
function committedOf(committed: NonNullable<RequestEntry['committed']>) {
  const body = committed.text === null ? undefined : parsed(committed.text);
  return { status: committed.status, body: body === undefined ? null : body.shown };
}

/** An entry as `GET /__sandbox/requests/{id}` shows it: the view, and a `curl` command that sends it again. */
export function entryWithCurl(entry: RequestEntry): RequestEntryWithCurlView {
  const headers = headersOf(entry);
  const { text } = requestOf(entry, headers);
  const curl = curlCommand({ method: entry.method, url: redactUrl(entry.url), headers, body: text });
  return { ...entryView(entry), curl };
}

type HarEntry = HarView['log']['entries'][number];
const pairs = (record: Record<string, string>) =>
  Object.entries(record).map(([name, value]) => ({ name, value }));

/** An entry as one HAR 1.2 entry: the same redactions as the journal's view. */
export function harEntry(entry: RequestEntry): HarEntry {
  const headers = headersOf(entry);
  const request = requestOf(entry, headers);
  const response = responseOf(entry);
  const url = redactUrl(entry.url);
  const mark = url.indexOf('?');
  const queryString =
    mark === -1
      ? []
      : [...new URLSearchParams(url.slice(mark + 1))].map(([name, value]) => ({ name, value }));
  const responseHeaders = [{ name: 'x-request-id', value: entry.requestId }];
  if (response.contentType !== null)
    responseHeaders.push({ name: 'content-type', value: response.contentType });
  for (const warning of entry.warnings) responseHeaders.push({ name: WARNING_HEADER, value: warning });
  const started = new Date(Date.parse(entry.time) - entry.durationMs);
  const har: HarEntry = {
    startedDateTime: Number.isNaN(started.getTime()) ? entry.time : started.toISOString(),
    time: entry.durationMs,
    request: {
      method: entry.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(headers),
      queryString,
      headersSize: -1,
      bodySize: request.bodySize ?? -1,
    },
    response: {
      status: entry.status,
      statusText: STATUS_CODES[entry.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: responseHeaders,
      content: {
        size: response.bodySize ?? 0,
        mimeType: response.contentType ?? 'application/octet-stream',
        ...(response.text === null ? {} : { text: response.text }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.bodySize ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    _id: String(entry.seq),
    _requestId: entry.requestId,
  };
  if (entry.upstream) har._upstream = true;
  if (entry.fault !== null) har._fault = entry.fault;
  if (request.text !== null)
    har.request.postData = { mimeType: request.contentType ?? JSON_TYPE, text: request.text };
  return har;
}
