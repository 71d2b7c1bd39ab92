// How frames reach the dashboard's pages: one server-sent event's bytes, a page's own queue that turns into a
// `reload` when the page falls too far behind (FeedClient), and a frame sent to many pages a slice a turn
// (Broadcast). The live feed (live.ts) decides what the frames hold.

/** One server-sent event, as its bytes on the wire. `data` must hold no newline (JSON text never does). */
export function sseEvent(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** A client whose writes have not caught up by this much gets a `reload` instead of more frames. */
export const MAX_BACKLOG_BYTES = 4 * 1_048_576;
export const encoder = new TextEncoder();
export const RELOAD = encoder.encode(sseEvent('reload', '{}'));
export const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** What a page's feed needs of its stream (Hono's `SSEStreamingApi` is one). */
export interface PageStream {
  write(bytes: Uint8Array): Promise<unknown>;
  abort(): void;
  readonly aborted: boolean;
  readonly closed: boolean;
}

/**
 * One connected page. Frames are written in order; while a write is on its way the next frames wait, and a page
 * so slow that its backlog passes MAX_BACKLOG_BYTES is told to reload (it then reads the state afresh) instead of
 * holding an ever longer queue.
 */
export class FeedClient {
  private backlog: Uint8Array[] = [];
  private backlogBytes = 0;
  private writing = false;
  private stale = false;
  /** Told to end: once what it has queued is written, the stream ends. */
  private ending = false;

  constructor(private readonly stream: PageStream) {}

  /** Sends `bytes` last, then ends the stream (its sandbox is gone: nothing more will come). */
  endWith(bytes: Uint8Array): void {
    this.send(bytes);
    this.ending = true;
    if (!this.writing) this.stream.abort();
  }

  /** Queues `bytes` for the page, after what it has not been sent yet. */
  send(bytes: Uint8Array): void {
    if (this.stale || this.stream.aborted || this.stream.closed) return;
    if (this.backlogBytes + bytes.length > MAX_BACKLOG_BYTES) {
      this.stale = true;
      this.backlog = [RELOAD];
      this.backlogBytes = RELOAD.length;
    } else {
      this.backlog.push(bytes);
      this.backlogBytes += bytes.length;
    }
    if (!this.writing) void this.pump();
  }

  private async pump(): Promise<void> {
    this.writing = true;
    try {
      for (let next = this.backlog.shift(); next !== undefined; next = this.backlog.shift()) {
        this.backlogBytes -= next.length;
        await this.stream.write(next);
      }
    } catch {
      this.stream.abort();
    } finally {
      this.writing = false;
      if (this.ending) this.stream.abort();
    }
  }
}

/**
 * Pages written to in one turn of the event loop. Every frame goes to every page watching; written to 300 pages in
 * one turn, it kept every request that arrived meanwhile waiting behind those writes (in the fan-out bench, reads'
 * p99 went from 17-44 ms without pages to 37-79 ms with them). Between slices, the event loop serves what came in.
 */
export const PAGES_PER_TURN = 25;

/**
 * Frames on their way to the pages watching, PAGES_PER_TURN pages a turn. A frame goes to the pages that were
 * watching when it was sent, and only once the frame before it went to all of its own, so that every page gets the
 * frames in order.
 */
export class Broadcast {
  private readonly queue: { bytes: Uint8Array; pages: FeedClient[]; next: number }[] = [];

  /** Sends `bytes` to `pages`, after the frames still on their way: a slice a turn, the first now if none is. */
  send(bytes: Uint8Array, pages: Iterable<FeedClient>): void {
    const all = [...pages];
    if (all.length === 0) return;
    this.queue.push({ bytes, pages: all, next: 0 });
    if (this.queue.length === 1) this.slice();
  }

  /** Frames not yet sent to all of their pages. */
  get pending(): number {
    return this.queue.length;
  }

  private readonly slice = (): void => {
    const frame = this.queue[0];
    if (!frame) return;
    const end = Math.min(frame.next + PAGES_PER_TURN, frame.pages.length);
    // A page's send only queues its bytes (its write's failure ends that page alone), so a slice always finishes.
    while (frame.next < end) frame.pages[frame.next++]?.send(frame.bytes);
    if (frame.next === frame.pages.length) this.queue.shift();
    if (this.queue.length > 0) setImmediate(this.slice);
  };
}
