/** One answered request, as the journal keeps it. */
export interface RequestEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** What production would refuse in the request, as its `x-sandbox-warning` headers said; empty for most. */
  warnings: readonly string[];
}

/** The warnings of a request that has none, shared. */
export const NO_WARNINGS: readonly string[] = Object.freeze([]);

/** The last `capacity` requests, newest first, in a fixed-size ring: memory stays flat however long it runs. */
export class RequestJournal {
  private readonly ring: (RequestEntry | undefined)[];
  private next = 0;
  private count = 0;
  private readonly listeners = new Set<(entry: RequestEntry) => void>();

  constructor(private readonly capacity: number) {
    this.ring = new Array(capacity);
  }

  /** Entries held now (at most the capacity). */
  get size(): number {
    return this.count;
  }

  /** Calls `listener` with each request added from now on; answers the unsubscribe function. */
  subscribe(listener: (entry: RequestEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(entry: RequestEntry): void {
    for (const listener of this.listeners) listener(entry);
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Newest first. */
  entries(): RequestEntry[] {
    const out: RequestEntry[] = [];
    for (let i = 1; i <= this.count; i++) {
      const entry = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (entry) out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}

export type LogFormat = 'pretty' | 'json';

/** A request as one log line. */
export function formatRequest(entry: RequestEntry, format: LogFormat): string {
  if (format === 'json') return JSON.stringify(entry);
  const { time, method, path, status, durationMs, requestId, warnings } = entry;
  const line = `${time.slice(11, 23)} ${method.padEnd(6)} ${path} ${status} ${durationMs.toFixed(1)}ms ${requestId}`;
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
