import type { IncomingHttpHeaders } from 'node:http';
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
 * An entry as the journal keeps it: one JSON string of everything but what the ring holds in its columns. One flat
 * string per entry is all the collector ever copies of the last thousand requests: an entry kept as its object
 * (Node's headers object, the URL, the answer text, the id, each an object of its own) was copied at every
 * scavenge that found it young, which cost every read more than the rest of its garbage.
 * The order: the request id and the path first, so that `requestIdOf` and `pathOf` read them without parsing.
 */
type Packed = [
  requestId: string,
  path: string,
  time: string,
  durationMs: number,
  warnings: readonly string[],
  url: string,
  scenario: FiredRule | null,
  fault: FaultKind | null,
  upstream: boolean,
  committed: RequestEntry['committed'],
  headers: Record<string, string | string[] | undefined> | null,
  /** 1: `requestBody` was bytes, kept here as latin1 text (one char a byte). */
  bytes: 0 | 1,
  requestBody: string | null,
  requestSize: number | null,
  requestTruncated: boolean,
  answer: string | null,
  answerSize: number | null,
  answerType: string | null,
  answerMessage: string | null,
  truncated: boolean,
];

/** The request headers of an entry as plain data: Node's object as it is, the fetch `Headers` (in process) as one. */
function plainHeaders(headers: RequestEntry['headers']): Packed[10] {
  if (headers === null || !(headers instanceof Headers)) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[name] = value;
  return out;
}

function pack(entry: RequestEntry): string {
  const body = entry.requestBody;
  const packed: Packed = [
    entry.requestId,
    entry.path,
    entry.time,
    entry.durationMs,
    entry.warnings,
    entry.url,
    entry.scenario,
    entry.fault,
    entry.upstream,
    entry.committed,
    plainHeaders(entry.headers),
    typeof body === 'string' || body === null ? 0 : 1,
    typeof body === 'string' || body === null ? body : body.toString('latin1'),
    entry.requestSize,
    entry.requestTruncated,
    entry.answer,
    entry.answerSize,
    entry.answerType,
    entry.answerMessage,
    entry.truncated,
  ];
  return JSON.stringify(packed);
}

/**
 * A kept entry as its readers see it: what the ring's columns hold at once, the rest decoded from its bytes on the
 * first read of a field of it (a verification of method, status and client decodes none).
 */
class KeptEntry implements RequestEntry {
  private text: string | undefined;
  private unpacked: Packed | undefined;

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

  private get packed(): string {
    this.text ??= this.slab.toString('utf8', this.start, this.end);
    return this.text;
  }

  private get all(): Packed {
    this.unpacked ??= JSON.parse(this.packed) as Packed;
    return this.unpacked;
  }

  /** The first field, read off the text: an id is word characters and `.:-`, nothing JSON escapes. */
  get requestId(): string {
    if (this.unpacked) return this.unpacked[0];
    return this.packed.slice(2, this.packed.indexOf('"', 2));
  }

  /** The second field, read off the text unless it holds an escape. */
  get path(): string {
    if (this.unpacked) return this.unpacked[1];
    const from = this.packed.indexOf('"', 2) + 3;
    const path = this.packed.slice(from, this.packed.indexOf('"', from));
    return path.includes('\\') ? this.all[1] : path;
  }

  get time() {
    return this.all[2];
  }
  get durationMs() {
    return this.all[3];
  }
  get warnings() {
    return this.all[4];
  }
  get url() {
    return this.all[5];
  }
  get scenario() {
    return this.all[6];
  }
  get fault() {
    return this.all[7];
  }
  get upstream() {
    return this.all[8];
  }
  get committed() {
    return this.all[9];
  }
  get headers(): IncomingHttpHeaders | null {
    return this.all[10];
  }
  get requestBody(): string | Buffer | null {
    const [, , , , , , , , , , , bytes, body] = this.all;
    return bytes === 1 && body !== null ? Buffer.from(body, 'latin1') : body;
  }
  get requestSize() {
    return this.all[13];
  }
  get requestTruncated() {
    return this.all[14];
  }
  get answer() {
    return this.all[15];
  }
  get answerSize() {
    return this.all[16];
  }
  get answerType() {
    return this.all[17];
  }
  get answerMessage() {
    return this.all[18];
  }
  get truncated() {
    return this.all[19];
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

  /** Writes an entry's text into the tail slab, or a new one where it does not fit, for slot `at`. */
  private write(at: number, text: string): void {
    const room = this.tail === undefined ? 0 : this.tail.length - this.used;
    // A character is at most 3 bytes in UTF-8 (a surrogate pair 4 for 2); the exact count only near the end.
    const bytes = text.length * 3 <= room ? text.length * 3 : Buffer.byteLength(text);
    if (this.tail === undefined || bytes > room) {
      this.tail = this.slabFor(bytes);
      this.used = 0;
    }
    const slab = this.tail;
    const written = slab.write(text, this.used, 'utf8');
    this.slabs[at] = slab;
    this.starts[at] = this.used;
    this.ends[at] = this.used + written;
    this.used += written;
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
  let line = `${time.slice(11, 23)} ${method.padEnd(6)} ${path} ${status} ${durationMs.toFixed(1)}ms ${requestId}`;
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
