import {
  FIRST_SLAB_BYTES,
  HEAD_BYTES,
  head,
  KeptEntry,
  pack,
  type RequestEntry,
  SLAB_BYTES,
} from './journal-bytes.js';

export { NO_WARNINGS, type RequestEntry } from './journal-bytes.js';

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
  private readonly slabs: (Slab | undefined)[];
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  /**
   * The slab written into now, and how much of it is used. A slab is appended to, and written again from its start
   * only once no slot points at it and no entry of it was ever handed out: an entry read (`KeptEntry`) decodes its
   * bytes when a field of it is first asked for, and they must still be its bytes then, whatever was added
   * meanwhile. A slab an entry of which was handed out goes with the last entry or reader that points at it.
   */
  private tail: Slab | undefined;
  private used = 0;
  /**
   * A slab no slot points at any more and no reader ever saw, written again when the tail is full. Without it a
   * journal that only writes (every read of the API) made a new 1 MiB slab every eight hundred requests or so, memory
   * outside the heap that V8 answered with a full collection about every second.
   */
  private spare: Buffer | undefined;
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
    const room = this.tail === undefined ? 0 : this.tail.bytes.length - this.used;
    // A character is at most 3 bytes in UTF-8 (a surrogate pair 4 for 2); the exact count only near the end.
    const bytes =
      HEAD_BYTES + (HEAD_BYTES + text.length * 3 <= room ? text.length * 3 : Buffer.byteLength(text));
    let tail = this.tail;
    if (tail === undefined || bytes > room) {
      const full = tail;
      tail = { bytes: this.bufferFor(bytes), live: 0, handedOut: false };
      this.tail = tail;
      this.used = 0;
      // A full slab whose entries all went before it was left is free now.
      if (full !== undefined && full.live === 0) this.release(full);
    }
    tail.live++;
    const slab = tail.bytes;
    const start = this.used;
    slab.writeDoubleLE(head.durationMs, start);
    slab.writeInt32LE(head.flags, start + 8);
    for (let i = 0; i < 8; i++) slab.writeInt32LE(head.lengths[i] ?? -1, start + 12 + i * 4);
    const end = start + HEAD_BYTES + slab.write(text, start + HEAD_BYTES, 'utf8');
    this.slabs[at] = tail;
    this.starts[at] = start;
    this.ends[at] = end;
    this.used = end;
  }

  /**
   * A slab for at least `bytes`, twice the size of the last (a journal little used holds little): the spare one if
   * it is that large, else a new one.
   */
  private bufferFor(bytes: number): Buffer {
    const size = Math.max(
      bytes,
      Math.min(SLAB_BYTES, Math.max(FIRST_SLAB_BYTES, (this.tail?.bytes.length ?? 0) * 2)),
    );
    const spare = this.spare;
    this.spare = undefined;
    if (spare !== undefined && spare.length >= size) return spare;
    return Buffer.allocUnsafeSlow(size);
  }

  /** A slab no slot points at any more: the spare, unless an entry of it was handed out or the spare is larger. */
  private release(slab: Slab): void {
    if (!slab.handedOut && (this.spare === undefined || slab.bytes.length > this.spare.length))
      this.spare = slab.bytes;
  }

  /** Lets go of what the slot `at` holds. */
  private forget(at: number): void {
    const slab = this.slabs[at];
    if (slab !== undefined && --slab.live === 0 && slab !== this.tail) this.release(slab);
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

  /** The entry of the slot `at`, as its readers see it: its slab is never written again. */
  private kept(at: number): RequestEntry | undefined {
    const slab = this.slabs[at];
    if (slab === undefined) return undefined;
    slab.handedOut = true;
    return new KeptEntry(
      this.seqs[at] ?? 0,
      this.methods[at] ?? '',
      this.statuses[at] ?? 0,
      this.clientIds[at] ?? null,
      this.businessIds[at] ?? null,
      this.costs[at] ?? 0,
      slab.bytes,
      this.starts[at] ?? 0,
      this.ends[at] ?? 0,
    );
  }

  /**
   * How many entries `test` holds for, with no object made per entry: `test` sees each entry, newest first,
   * through one reader moved from entry to entry, so it must not keep what it is given. What a verification that
   * holds reads of a journal of a thousand entries.
   */
  countWhere(test: (entry: RequestEntry) => boolean): number {
    let reader: KeptEntry | undefined;
    let n = 0;
    for (let i = this.count - 1; i >= 0; i--) {
      const at = (this.head + i) % this.capacity;
      const slab = this.slabs[at];
      if (slab === undefined) continue;
      const seq = this.seqs[at] ?? 0;
      const method = this.methods[at] ?? '';
      const status = this.statuses[at] ?? 0;
      const clientId = this.clientIds[at] ?? null;
      const businessId = this.businessIds[at] ?? null;
      const cost = this.costs[at] ?? 0;
      const start = this.starts[at] ?? 0;
      const end = this.ends[at] ?? 0;
      if (reader === undefined)
        reader = new KeptEntry(seq, method, status, clientId, businessId, cost, slab.bytes, start, end);
      else reader.moveTo(seq, method, status, clientId, businessId, cost, slab.bytes, start, end);
      if (test(reader)) n++;
    }
    return n;
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

/** A slab: its bytes, how many slots point at it, and whether an entry of it was handed out (then kept as it is). */
interface Slab {
  bytes: Buffer;
  live: number;
  handedOut: boolean;
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
