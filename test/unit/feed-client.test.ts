import { describe, expect, it } from 'vitest';
import { FeedClient, MAX_BACKLOG_BYTES, type PageStream } from '../../src/dashboard/live.js';

/** A page's stream whose writes finish only when the test lets them: a page that reads slowly, or not at all. */
function slowStream() {
  const written: string[] = [];
  const pending: (() => void)[] = [];
  const stream: PageStream = {
    aborted: false,
    closed: false,
    abort: () => undefined,
    write: (bytes: Uint8Array) => {
      written.push(Buffer.from(bytes).toString('latin1'));
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  };
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
