import { type IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FaultKind, FiredRule } from '../contract/scenarios.js';

// The request journal's entries as it keeps them: one text an entry, cut into its parts again when read.

/**
 * One answered request. The front gives it as the references the app had anyway (the headers Node parsed, the
 * JSON text the route read, the JSON text sent), to the journal, which keeps it as bytes (`RequestJournal`), and to
 * the log line; nothing is parsed or redacted while the request is answered. `journal-view.ts` turns an entry into
 * what the control API and the dashboard show, redacted, when someone reads it.
 */
export interface RequestEntry {
  /** Unique in the journal and increasing: the n-th request journaled since the start. */
  seq: number;
  /** When the answer was ready. */
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** What production would refuse in the request, as its `x-sandbox-warning` headers said; empty for most. */
  warnings: readonly string[];
  /** The request's URL, query string included (absolute). */
  url: string;
  /** The client and business the credentials resolved to, if any. */
  clientId: string | null;
  businessId: string | null;
  /** The scenario rule that fired for the request, if one did. */
  scenario: FiredRule | null;
  /**
   * The transport fault a scenario rule broke the answer's connection with, if one did; with `reset`, `empty` or
   * `garbage` over a connection no answer was sent: `status` is 0 and nothing of an answer is kept.
   */
  fault: FaultKind | null;
  /** The request went to the upstream (`--upstream`), and the answer is the upstream's. */
  upstream: boolean;
  /**
   * Where a rule lost the answer after the commit (`after: "commit"`): the answer the call committed to, its status
   * and JSON text; else null.
   */
  committed: { status: number; text: string | null } | null;
  /** The request headers as received (Node's parsed ones; the fetch `Headers` in process); null in unit tests. */
  headers: IncomingHttpHeaders | Headers | null;
  /**
   * Node's raw header lines, where there is a Node request: what the journal keeps of the headers (it makes Node's
   * object of them again, by Node's rule, when read).
   */
  rawHeaders?: readonly string[] | undefined;
  /**
   * The request body kept: the text a JSON route read, or the bytes of a body drained unread; null when there
   * was none, it was a form, or it was larger than `--journal-body-limit`.
   */
  requestBody: string | Buffer | null;
  /** The body's size in bytes when it is not kept (a form, one too large to keep, one never read); else null. */
  requestSize: number | null;
  /** The body was larger than `--journal-body-limit`. */
  requestTruncated: boolean;
  /** The JSON answer as sent, within `--journal-body-limit`; null for another kind of answer or a larger one. */
  answer: string | null;
  /** The answer's size in bytes when it is not kept and known; else null. */
  answerSize: number | null;
  /** The answer's content type when it was not JSON. */
  answerType: string | null;
  /** The envelope's `message` of a JSON answer too large to keep. */
  answerMessage: string | null;
  /** The answer was JSON larger than `--journal-body-limit`. */
  truncated: boolean;
  /** What the entry holds, in bytes, as the journal's byte bound counts it. */
  cost: number;
}

/** The warnings of a request that has none, shared. */
export const NO_WARNINGS: readonly string[] = Object.freeze([]);

/**
 * An entry as the journal keeps it, one text: a head of numbers (the duration, the flags, the length of each part),
 * then the parts as they are: the request id, the path, the time, the URL, the request headers, the request body,
 * the answer, and the rarer fields as JSON (`Extras`, absent when all are at their usual values). Nothing of a
 * request's own is escaped or serialised on its way in (the answer is JSON text full of quotes): each part is cut
 * out again by its length.
 */
interface Extras {
  warnings?: readonly string[];
  scenario?: FiredRule;
  fault?: FaultKind;
  committed?: NonNullable<RequestEntry['committed']>;
  requestSize?: number;
  answerSize?: number;
  answerType?: string;
  answerMessage?: string;
}

/** The head's flags. */
const UPSTREAM = 1;
const REQUEST_TRUNCATED = 2;
const TRUNCATED = 4;
/** The request body was bytes, kept as latin1 text (one character a byte). */
const BYTES = 8;
/** The headers' kind (`HeadersKind`) is the flags divided by this. */
const HEADERS_KIND = 16;

/**
 * How the request headers are kept: none; Node's raw lines (`rawHeaders`, names and values alternating, one a
 * line), made into Node's object when read, by Node's own rule; the fetch `Headers` of a request in process, as
 * name and value lines; an object as JSON (a caller's own entry).
 */
enum HeadersKind {
  None = 0,
  Raw = 1,
  Fetch = 2,
  Json = 3,
}

/** The request headers of an entry as text, and how to read it back. */
function headersText(entry: RequestEntry): [HeadersKind, string] {
  // A header line holds no line break (Node and fetch refuse one): one a line is unambiguous.
  if (entry.rawHeaders !== undefined) return [HeadersKind.Raw, entry.rawHeaders.join('\n')];
  const headers = entry.headers;
  if (headers === null) return [HeadersKind.None, ''];
  if (headers instanceof Headers) {
    const lines: string[] = [];
    for (const [name, value] of headers) lines.push(name, value);
    return [HeadersKind.Fetch, lines.join('\n')];
  }
  return [HeadersKind.Json, JSON.stringify(headers)];
}

interface NodeHeaderLines {
  /** Node's own rule for one header line into its `headers` object (`_http_incoming.js`). */
  _addHeaderLine?: (
    this: { joinDuplicateHeaders: boolean },
    name: string,
    value: string,
    into: object,
  ) => void;
}
const addHeaderLine = (IncomingMessage.prototype as NodeHeaderLines)._addHeaderLine;

/**
 * Node's `headers` object of raw header lines: by Node's own rule where it has one (lower-case names, duplicates
 * joined with `, `, cookies with `; `, `set-cookie` a list, a duplicate of a single-valued header such as
 * `authorization` dropped), else the lines lower-cased, the first of each name kept.
 */
function nodeHeaders(lines: readonly string[]): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  const node = { joinDuplicateHeaders: false };
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = lines[i] ?? '';
    const value = lines[i + 1] ?? '';
    if (addHeaderLine) addHeaderLine.call(node, name, value, out);
    else out[name.toLowerCase()] ??= value;
  }
  return out;
}

/** The rarer fields of an entry that are not at their usual values, as JSON; '' when none is. */
function extrasOf(entry: RequestEntry): string {
  const { warnings, scenario, fault, committed, requestSize, answerSize, answerType, answerMessage } = entry;
  if (
    warnings.length === 0 &&
    scenario === null &&
    fault === null &&
    committed === null &&
    requestSize === null &&
    answerSize === null &&
    answerType === null &&
    answerMessage === null
  )
    return '';
  const extras: Extras = {};
  if (warnings.length > 0) extras.warnings = warnings;
  if (scenario !== null) extras.scenario = scenario;
  if (fault !== null) extras.fault = fault;
  if (committed !== null) extras.committed = committed;
  if (requestSize !== null) extras.requestSize = requestSize;
  if (answerSize !== null) extras.answerSize = answerSize;
  if (answerType !== null) extras.answerType = answerType;
  if (answerMessage !== null) extras.answerMessage = answerMessage;
  return JSON.stringify(extras);
}

/**
 * The head of the entry `pack` made last, written before its text in binary: the duration, the flags and the
 * length of each of the eight parts (-1: not kept).
 */
export const HEAD_BYTES = 8 + 4 + 8 * 4;
export const head = { durationMs: 0, flags: 0, lengths: new Int32Array(8) };

/** The text of an entry, its head left in `head`. */
export function pack(entry: RequestEntry): string {
  const body = entry.requestBody;
  const bodyText = body === null || typeof body === 'string' ? body : body.toString('latin1');
  const [kind, headers] = headersText(entry);
  const { requestId, path, time, url, answer } = entry;
  const extras = extrasOf(entry);
  const flags =
    (entry.upstream ? UPSTREAM : 0) +
    (entry.requestTruncated ? REQUEST_TRUNCATED : 0) +
    (entry.truncated ? TRUNCATED : 0) +
    (body !== null && typeof body !== 'string' ? BYTES : 0) +
    kind * HEADERS_KIND;
  head.durationMs = entry.durationMs;
  head.flags = flags;
  const { lengths } = head;
  lengths[0] = requestId.length;
  lengths[1] = path.length;
  lengths[2] = time.length;
  lengths[3] = url.length;
  lengths[4] = headers.length;
  lengths[5] = bodyText === null ? -1 : bodyText.length;
  lengths[6] = answer === null ? -1 : answer.length;
  lengths[7] = extras.length;
  return `${requestId}${path}${time}${url}${headers}${bodyText ?? ''}${answer ?? ''}${extras}`;
}

/** What `KeptEntry` reads of an entry's text. */
interface Unpacked {
  requestId: string;
  path: string;
  time: string;
  url: string;
  durationMs: number;
  flags: number;
  /** The headers' text, and how to read it (`headersOf`). */
  headers: string;
  headersKind: HeadersKind;
  requestBody: string | Buffer | null;
  answer: string | null;
  extras: Extras;
}

/** The request headers of an entry's text, as the views read them. */
function headersOf(text: string, kind: HeadersKind): IncomingHttpHeaders | null {
  const lines = text ? text.split('\n') : [];
  if (kind === HeadersKind.Raw) return nodeHeaders(lines);
  if (kind === HeadersKind.Fetch) {
    const out: IncomingHttpHeaders = {};
    for (let i = 0; i + 1 < lines.length; i += 2) out[lines[i] ?? ''] = lines[i + 1] ?? '';
    return out;
  }
  return kind === HeadersKind.Json ? (JSON.parse(text) as IncomingHttpHeaders) : null;
}

/**
 * The request id and the path of an entry in `slab`, decoding only the bytes they can take (3 a character at
 * most): what a verification by path reads of every entry of the method it asks for.
 */
function idAndPath(slab: Buffer, start: number, end: number): [string, string] {
  const idLength = slab.readInt32LE(start + 12);
  const pathLength = slab.readInt32LE(start + 16);
  const from = start + HEAD_BYTES;
  // A character cut at the end of the bytes read lies past the path: the two come out whole.
  const text = slab.toString('utf8', from, Math.min(end, from + (idLength + pathLength) * 3));
  return [text.slice(0, idLength), text.slice(idLength, idLength + pathLength)];
}

const NO_EXTRAS: Extras = Object.freeze({});

/** An entry from its bytes in `slab`, `start` to `end`: its head, then its text. */
function unpack(slab: Buffer, start: number, end: number): Unpacked {
  const durationMs = slab.readDoubleLE(start);
  const flags = slab.readInt32LE(start + 8);
  const lengths: number[] = [];
  for (let i = 0; i < 8; i++) lengths.push(slab.readInt32LE(start + 12 + i * 4));
  const text = slab.toString('utf8', start + HEAD_BYTES, end);
  let at = 0;
  /** The next part, of `length` characters; null for a length of -1 (not kept). */
  const part = (length: number | undefined): string | null => {
    if (length === undefined || length < 0) return null;
    at += length;
    return text.slice(at - length, at);
  };
  const [requestId, path, time, url, headers, body = null, answer = null, extras] = lengths.map(part);
  return {
    requestId: requestId ?? '',
    path: path ?? '',
    time: time ?? '',
    url: url ?? '',
    durationMs,
    flags,
    headers: headers ?? '',
    headersKind: Math.floor(flags / HEADERS_KIND) as HeadersKind,
    requestBody: (flags & BYTES) !== 0 && body !== null ? Buffer.from(body, 'latin1') : body,
    answer,
    extras: extras ? (JSON.parse(extras) as Extras) : NO_EXTRAS,
  };
}

/**
 * A kept entry as its readers see it: what the ring's columns hold at once, the rest decoded from its bytes on the
 * first read of a field of it (a verification of method, status and client decodes none).
 */
export class KeptEntry implements RequestEntry {
  private unpacked: Unpacked | undefined;
  private head: [requestId: string, path: string] | undefined;
  private parsedHeaders: IncomingHttpHeaders | null | undefined;
  readonly rawHeaders = undefined;

  // Not readonly: a journal's scan (`RequestJournal.countWhere`) moves one reader from entry to entry (`moveTo`).
  constructor(
    public seq: number,
    public method: string,
    public status: number,
    public clientId: string | null,
    public businessId: string | null,
    public cost: number,
    private slab: Buffer,
    private start: number,
    private end: number,
  ) {}

  /** Makes this reader another entry's, forgetting what it decoded of the last. */
  moveTo(
    seq: number,
    method: string,
    status: number,
    clientId: string | null,
    businessId: string | null,
    cost: number,
    slab: Buffer,
    start: number,
    end: number,
  ): void {
    this.seq = seq;
    this.method = method;
    this.status = status;
    this.clientId = clientId;
    this.businessId = businessId;
    this.cost = cost;
    this.slab = slab;
    this.start = start;
    this.end = end;
    this.unpacked = undefined;
    this.head = undefined;
    this.parsedHeaders = undefined;
  }

  private get all(): Unpacked {
    this.unpacked ??= unpack(this.slab, this.start, this.end);
    return this.unpacked;
  }

  /** The request id and the path, decoded alone unless the whole entry was. */
  private get idAndPath(): [string, string] {
    if (this.unpacked) return [this.unpacked.requestId, this.unpacked.path];
    this.head ??= idAndPath(this.slab, this.start, this.end);
    return this.head;
  }

  get requestId() {
    return this.idAndPath[0];
  }
  get path() {
    return this.idAndPath[1];
  }
  get time() {
    return this.all.time;
  }
  get durationMs() {
    return this.all.durationMs;
  }
  get url() {
    return this.all.url;
  }
  get warnings() {
    return this.all.extras.warnings ?? NO_WARNINGS;
  }
  get scenario() {
    return this.all.extras.scenario ?? null;
  }
  get fault() {
    return this.all.extras.fault ?? null;
  }
  get committed() {
    return this.all.extras.committed ?? null;
  }
  get upstream() {
    return (this.all.flags & UPSTREAM) !== 0;
  }
  get headers(): IncomingHttpHeaders | null {
    if (this.parsedHeaders === undefined) {
      const { headers, headersKind } = this.all;
      this.parsedHeaders = headersOf(headers, headersKind);
    }
    return this.parsedHeaders;
  }
  get requestBody(): string | Buffer | null {
    return this.all.requestBody;
  }
  get requestSize() {
    return this.all.extras.requestSize ?? null;
  }
  get requestTruncated() {
    return (this.all.flags & REQUEST_TRUNCATED) !== 0;
  }
  get answer() {
    return this.all.answer;
  }
  get answerSize() {
    return this.all.extras.answerSize ?? null;
  }
  get answerType() {
    return this.all.extras.answerType ?? null;
  }
  get answerMessage() {
    return this.all.extras.answerMessage ?? null;
  }
  get truncated() {
    return (this.all.flags & TRUNCATED) !== 0;
  }
}

/** The first slab of a journal's bytes; each next one twice the last, up to `SLAB_BYTES`. */
export const FIRST_SLAB_BYTES = 16 * 1024;
export const SLAB_BYTES = 1024 * 1024;
