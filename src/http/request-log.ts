import { type IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FaultKind, FiredRule } from '../contract/scenarios.js';

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

/** What an entry costs besides its bodies: its fields, its headers object (counted, not measured). */
export const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * Whether `text` (a JS string) takes more than `limit` bytes in UTF-8. Its length bounds the bytes from below and
 * a third of them from above, so a byte count is taken only between the two.
 */
export function exceeds(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text) > limit;
}

const MESSAGE = /^\{"status":(?:true|false),"message":("(?:[^"\\]|\\.)*")/;

/** The `message` of an envelope, read from the start of its JSON text; null for another body. */
export function envelopeMessage(text: string): string | null {
  const found = MESSAGE.exec(text.slice(0, 4096));
  if (!found?.[1]) return null;
  try {
    return JSON.parse(found[1]) as string;
  } catch {
    return null;
  }
}

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
const HEAD_BYTES = 8 + 4 + 8 * 4;
const head = { durationMs: 0, flags: 0, lengths: new Int32Array(8) };

/** The text of an entry, its head left in `head`. */
function pack(entry: RequestEntry): string {
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
class KeptEntry implements RequestEntry {
  private unpacked: Unpacked | undefined;
  private head: [requestId: string, path: string] | undefined;
  private parsedHeaders: IncomingHttpHeaders | null | undefined;
  readonly rawHeaders = undefined;

  constructor(
    public seq: number,
    readonly method: string,
    readonly status: number,
    readonly clientId: string | null,
    readonly businessId: string | null,
    readonly cost: number,
    private readonly slab: Buffer,
    private readonly start: number,
    private readonly end: number,
  ) {}

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
const FIRST_SLAB_BYTES = 16 * 1024;
const SLAB_BYTES = 1024 * 1024;

/**
 * The last requests answered, newest first, bounded by count (`--journal-size`) and by the bytes of the bodies
 * they hold (`--journal-bytes`): whichever is reached first, the oldest entries make room (the newest one is kept
 * whatever it costs). A ring: memory stays flat however long it runs.
 *
 * What it keeps costs the collector nothing: each entry is its JSON text (`pack`) written into large buffers,
 * outside V8's heap, one after another, and a few columns of numbers and of strings the app holds anyway (the
 * method, the ids of the client and the business). An entry kept as its objects (Node's headers object, the URL,
 * the answer, the id), or even as one string, lived through a scavenge or two and was then promoted, to die in
 * the old generation a thousand requests later: the collector copied and then swept every read's entry, which
 * cost a read more than the rest of its garbage together. What it answers is decoded from those bytes when read
 * (`KeptEntry`). A listener hears the entry as it was given.
 */
export class RequestJournal {
  /** Each entry's slab, and where in it its text starts and ends. */
  private readonly slabs: (Buffer | undefined)[];
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  /**
   * The slab written into now, and how much of it is used. Slabs are only ever appended to, never reused: an entry
   * read (`KeptEntry`) decodes its bytes when a field of it is first asked for, and they must still be its bytes
   * then, whatever was added meanwhile. A slab goes with the last entry or reader that points at it.
   */
  private tail: Buffer | undefined;
  private used = 0;
  private readonly seqs: Float64Array;
  private readonly costs: Float64Array;
  private readonly statuses: Int32Array;
  private readonly methods: string[];
  private readonly clientIds: (string | null)[];
  private readonly businessIds: (string | null)[];
  /** The position of the oldest entry. */
  private head = 0;
  private count = 0;
  private held = 0;
  private lastSeq = 0;
  private readonly listeners = new Set<(entry: RequestEntry) => void>();

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    /** The bound it shares with other journals (the isolated sandboxes'), on top of its own. */
    private pool: JournalPool | null = null,
  ) {
    this.slabs = new Array(capacity).fill(undefined);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.costs = new Float64Array(capacity);
    this.statuses = new Int32Array(capacity);
    this.methods = new Array(capacity).fill('');
    this.clientIds = new Array(capacity).fill(null);
    this.businessIds = new Array(capacity).fill(null);
    pool?.join(this);
  }

  /** Entries held now (at most the capacity). */
  get size(): number {
    return this.count;
  }

  /** The bytes the entries held now count for. */
  get bytes(): number {
    return this.held;
  }

  /** The `seq` the next entry gets. */
  nextSeq(): number {
    return this.lastSeq + 1;
  }

  /** Calls `listener` with each request added from now on; answers the unsubscribe function. */
  subscribe(listener: (entry: RequestEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds an entry; its `seq` is set here (whatever it was given). */
  add(entry: RequestEntry): void {
    entry.seq = ++this.lastSeq;
    for (const listener of this.listeners) listener(entry);
    while (this.count > 0 && (this.count === this.capacity || this.held + entry.cost > this.maxBytes))
      this.dropOldest();
    const at = (this.head + this.count) % this.capacity;
    this.write(at, pack(entry));
    this.seqs[at] = entry.seq;
    this.costs[at] = entry.cost;
    this.statuses[at] = entry.status;
    this.methods[at] = entry.method;
    this.clientIds[at] = entry.clientId;
    this.businessIds[at] = entry.businessId;
    this.count++;
    this.held += entry.cost;
    this.pool?.grew(entry.cost);
  }

  /** Drops its oldest entry (its own bounds, or its pool's). */
  dropOldest(): void {
    if (this.count === 0) return;
    const at = this.head;
    const cost = this.costs[at] ?? 0;
    this.forget(at);
    this.head = (this.head + 1) % this.capacity;
    this.count--;
    this.held -= cost;
    this.pool?.shrank(cost);
  }

  /**
   * Writes an entry, its head (`head`) and its text, into the tail slab, or a new one where it does not fit, for
   * slot `at`.
   */
  private write(at: number, text: string): void {
    const room = this.tail === undefined ? 0 : this.tail.length - this.used;
    // A character is at most 3 bytes in UTF-8 (a surrogate pair 4 for 2); the exact count only near the end.
    const bytes =
      HEAD_BYTES + (HEAD_BYTES + text.length * 3 <= room ? text.length * 3 : Buffer.byteLength(text));
    if (this.tail === undefined || bytes > room) {
      this.tail = this.slabFor(bytes);
      this.used = 0;
    }
    const slab = this.tail;
    const start = this.used;
    slab.writeDoubleLE(head.durationMs, start);
    slab.writeInt32LE(head.flags, start + 8);
    for (let i = 0; i < 8; i++) slab.writeInt32LE(head.lengths[i] ?? -1, start + 12 + i * 4);
    const end = start + HEAD_BYTES + slab.write(text, start + HEAD_BYTES, 'utf8');
    this.slabs[at] = slab;
    this.starts[at] = start;
    this.ends[at] = end;
    this.used = end;
  }

  /** A new slab for at least `bytes`, twice the size of the last (a journal little used holds little). */
  private slabFor(bytes: number): Buffer {
    const size = Math.min(SLAB_BYTES, Math.max(FIRST_SLAB_BYTES, (this.tail?.length ?? 0) * 2));
    return Buffer.allocUnsafeSlow(Math.max(size, bytes));
  }

  /** Lets go of what the slot `at` holds. */
  private forget(at: number): void {
    this.slabs[at] = undefined;
    this.clientIds[at] = null;
    this.businessIds[at] = null;
  }

  /** Leaves its pool, emptied (its sandbox was dropped). */
  detach(): void {
    this.clear();
    this.pool?.leave(this);
    this.pool = null;
  }

  /** The entry of the slot `at`, as its readers see it. */
  private kept(at: number): RequestEntry | undefined {
    const slab = this.slabs[at];
    if (slab === undefined) return undefined;
    return new KeptEntry(
      this.seqs[at] ?? 0,
      this.methods[at] ?? '',
      this.statuses[at] ?? 0,
      this.clientIds[at] ?? null,
      this.businessIds[at] ?? null,
      this.costs[at] ?? 0,
      slab,
      this.starts[at] ?? 0,
      this.ends[at] ?? 0,
    );
  }

  /** Newest first. */
  entries(): RequestEntry[] {
    const out: RequestEntry[] = [];
    for (let i = this.count - 1; i >= 0; i--) {
      const entry = this.kept((this.head + i) % this.capacity);
      if (entry) out.push(entry);
    }
    return out;
  }

  /** The entry of this `seq`, if the journal still holds it. */
  get(seq: number): RequestEntry | undefined {
    if (this.count === 0 || !Number.isSafeInteger(seq)) return undefined;
    const offset = seq - (this.seqs[this.head] ?? 0);
    if (offset < 0 || offset >= this.count) return undefined;
    return this.kept((this.head + offset) % this.capacity);
  }

  /** Empties the journal; answers how many entries went. `seq` goes on from where it was. */
  clear(): number {
    const removed = this.count;
    for (let i = 0; i < this.count; i++) this.forget((this.head + i) % this.capacity);
    this.head = 0;
    this.count = 0;
    this.pool?.shrank(this.held);
    this.held = 0;
    return removed;
  }
}

/**
 * A bound on the bytes several journals hold together (`--sandboxes-journal-bytes`, over every isolated sandbox's),
 * counted as each journal counts its own (`RequestEntry.cost`). Past it, the largest journal by bytes drops its
 * oldest entry, again until the journals fit; a journal's newest entry is kept, as its own bound keeps it.
 */
export class JournalPool {
  private readonly journals = new Set<RequestJournal>();
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** The bytes its journals hold together. */
  get bytes(): number {
    return this.held;
  }

  join(journal: RequestJournal): void {
    this.journals.add(journal);
    this.held += journal.bytes;
  }

  leave(journal: RequestJournal): void {
    if (this.journals.delete(journal)) this.held -= journal.bytes;
  }

  /** A journal took an entry: the largest ones make room while the pool is over its bound. */
  grew(cost: number): void {
    this.held += cost;
    while (this.held > this.maxBytes) {
      let largest: RequestJournal | undefined;
      for (const journal of this.journals)
        if (journal.size > 1 && (largest === undefined || journal.bytes > largest.bytes)) largest = journal;
      if (largest === undefined) return;
      largest.dropOldest();
    }
  }

  shrank(cost: number): void {
    this.held -= cost;
  }
}

export type LogFormat = 'pretty' | 'json';

/** The methods a pretty line names, each padded to the width of the longest, made once. */
const PADDED = new Map(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((m) => [m, m.padEnd(6)]),
);
const paddedMethod = (method: string) => PADDED.get(method) ?? method.padEnd(6);

/** The time of day a pretty line shows, cut once per distinct time (requests answered in one millisecond share it). */
let lastTime = '';
let lastClock = '';
function clockOf(time: string): string {
  if (time !== lastTime) {
    lastTime = time;
    lastClock = time.slice(11, 23);
  }
  return lastClock;
}

/**
 * A request as one log line: method, path, status, duration, request id, warnings and the client when known.
 * Never a header or a body, so never a secret, and nothing to serialise beyond these few fields.
 */
export function formatRequest(entry: RequestEntry, format: LogFormat, prefix = ''): string {
  const { time, method, status, durationMs, requestId, warnings, clientId, fault } = entry;
  // The path as the client sent it: an isolated sandbox's requests with its `/sandboxes/{id}` in front.
  const path = prefix === '' ? entry.path : `${prefix}${entry.path}`;
  if (format === 'json') {
    if (fault !== null)
      return JSON.stringify({
        time,
        method,
        path,
        status,
        durationMs,
        requestId,
        warnings,
        ...(clientId === null ? {} : { clientId }),
        fault,
      });
    return JSON.stringify(
      clientId === null
        ? { time, method, path, status, durationMs, requestId, warnings }
        : { time, method, path, status, durationMs, requestId, warnings, clientId },
    );
  }
  let line = `${clockOf(time)} ${paddedMethod(method)} ${path} ${status} ${durationMs.toFixed(1)}ms ${requestId}`;
  if (clientId !== null) line += ` client=${clientId}`;
  if (fault !== null) line += ` fault=${fault}`;
  return warnings.length === 0 ? line : `${line} warning: ${warnings.join(' | ')}`;
}

/**
 * Writes lines to a stream, gathered into one write per turn of the event loop: under load a write per
 * request would cost more than the request.
 */
export function batchedWriter(write: (chunk: string) => void): (line: string) => void {
  let pending: string[] = [];
  return (line) => {
    if (pending.length === 0) {
      setImmediate(() => {
        const chunk = `${pending.join('\n')}\n`;
        pending = [];
        write(chunk);
      });
    }
    pending.push(line);
  };
}
