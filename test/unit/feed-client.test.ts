import { describe, expect, it } from 'vitest';
import {
  Broadcast,
  FeedClient,
  MAX_BACKLOG_BYTES,
  PAGES_PER_TURN,
  type PageStream,
} from '../../src/dashboard/page-streams.js';

/** A page's stream that records what it is written; each write finishes when `finish()` does. */
function recordingStream(finish: () => Promise<void>) {
  const written: string[] = [];
  const stream: PageStream = {
    aborted: false,
    closed: false,
    abort: () => undefined,
    write: (bytes: Uint8Array) => {
      written.push(Buffer.from(bytes).toString('latin1'));
      return finish();
    },
  };
  return { stream, written };
}

/** A page's stream whose writes finish only when the test lets them: a page that reads slowly, or not at all. */
function slowStream() {
  const pending: (() => void)[] = [];
  const { stream, written } = recordingStream(() => new Promise<void>((resolve) => pending.push(resolve)));
  /** Lets every write on its way finish, and those they start, until none is left. */
  const release = async () => {
    while (pending.length > 0) {
      for (const done of pending.splice(0)) done();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  return { stream, written, release };
}

const frame = (n: number, size: number) =>
  new TextEncoder().encode(`event: patch\ndata: ${n}${' '.repeat(size)}\n\n`);

describe('a dashboard page that falls behind', () => {
  it('gets its frames in order while it keeps up', async () => {
    const { stream, written, release } = slowStream();
    const client = new FeedClient(stream);
    for (let n = 0; n < 5; n++) client.send(frame(n, 10));
    await release();
    expect(written.map((w) => w.slice(0, 20))).toEqual(
      [0, 1, 2, 3, 4].map((n) => `event: patch\ndata: ${n}`),
    );
  });

  it('is told to reload, and sent nothing more, once its backlog passes the bound', async () => {
    const { stream, written, release } = slowStream();
    const client = new FeedClient(stream);
    const size = 512 * 1024;
    // The first frame goes out at once and stays on its way; the rest pile up past the bound.
    const frames = Math.ceil(MAX_BACKLOG_BYTES / size) + 3;
    for (let n = 0; n < frames; n++) client.send(frame(n, size));
    client.send(frame(999, 10));
    await release();
    expect(written).toHaveLength(2);
    expect(written[0]?.startsWith('event: patch\ndata: 0')).toBe(true);
    expect(written[1]).toBe('event: reload\ndata: {}\n\n');
  });
});

/** A page that reads at once: each write is recorded and done. */
function quickPage() {
  const { stream, written } = recordingStream(() => Promise.resolve());
  return { client: new FeedClient(stream), written };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a frame sent to many pages', () => {
  it('goes to PAGES_PER_TURN pages a turn, so that requests are served between the slices', async () => {
    const pages = Array.from({ length: 2 * PAGES_PER_TURN + 3 }, quickPage);
    const broadcast = new Broadcast();
    broadcast.send(
      frame(1, 10),
      pages.map((p) => p.client),
    );
    const reached = () => pages.filter((p) => p.written.length > 0).length;
    expect(reached()).toBe(PAGES_PER_TURN);
    await nextTurn();
    expect(reached()).toBe(2 * PAGES_PER_TURN);
    await nextTurn();
    expect(reached()).toBe(pages.length);
    expect(broadcast.pending).toBe(0);
  });

  it('reaches every page in the order the frames were sent, a page that came later from the next frame on', async () => {
    const pages = Array.from({ length: 3 * PAGES_PER_TURN }, quickPage);
    const late = quickPage();
    const broadcast = new Broadcast();
    broadcast.send(
      frame(1, 10),
      pages.map((p) => p.client),
    );
    // In the opposite order: were each frame sliced on its own, the last pages would get frame 2 before frame 1.
    broadcast.send(frame(2, 10), [late.client, ...pages.map((p) => p.client).reverse()]);
    broadcast.send(frame(3, 10), [...pages.map((p) => p.client), late.client]);
    while (broadcast.pending > 0) await nextTurn();
    const numbers = (written: string[]) => written.map((w) => w.slice(19, 20));
    for (const page of pages) expect(numbers(page.written)).toEqual(['1', '2', '3']);
    expect(numbers(late.written)).toEqual(['2', '3']);
  });
});
