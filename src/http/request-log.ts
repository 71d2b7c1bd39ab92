import type { IncomingHttpHeaders } from 'node:http';
import type { FaultKind, FiredRule } from '../contract/scenarios.js';

/**
 * One answered request, as the journal keeps it. What the request and its answer carried is held as the
 * references the app had anyway (the headers Node parsed, the JSON text the route read, the JSON text sent):
 * nothing is copied, parsed or redacted while the request is answered. `journal-view.ts` turns an
 * entry into what the control API and the dashboard show, redacted, when someone reads it.
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
 * The last requests answered, newest first, bounded by count (`--journal-size`) and by the bytes of the bodies
 * they hold (`--journal-bytes`): whichever is reached first, the oldest entries make room (the newest one is kept
 * whatever it costs). A ring: memory stays flat however long it runs.
 */
export class RequestJournal {
  private readonly ring: (RequestEntry | undefined)[];
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
    this.ring = new Array(capacity);
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
    this.ring[(this.head + this.count) % this.capacity] = entry;
    this.count++;
    this.held += entry.cost;
    this.pool?.grew(entry.cost);
  }

  /** Drops its oldest entry (its own bounds, or its pool's). */
  dropOldest(): void {
    const oldest = this.ring[this.head];
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
    const cost = oldest?.cost ?? 0;
    this.held -= cost;
    this.pool?.shrank(cost);
  }

  /** Leaves its pool, emptied (its sandbox was dropped). */
  detach(): void {
    this.clear();
    this.pool?.leave(this);
    this.pool = null;
  }

  /** Newest first. */
  entries(): RequestEntry[] {
    const out: RequestEntry[] = [];
    for (let i = this.count - 1; i >= 0; i--) {
      const entry = this.ring[(this.head + i) % this.capacity];
      if (entry) out.push(entry);
    }
    return out;
  }

  /** The entry of this `seq`, if the journal still holds it. */
  get(seq: number): RequestEntry | undefined {
    const oldest = this.ring[this.head];
    if (!oldest || !Number.isSafeInteger(seq)) return undefined;
    const offset = seq - oldest.seq;
    if (offset < 0 || offset >= this.count) return undefined;
    return this.ring[(this.head + offset) % this.capacity];
  }

  /** Empties the journal; answers how many entries went. `seq` goes on from where it was. */
  clear(): number {
    const removed = this.count;
    this.ring.fill(undefined);
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
