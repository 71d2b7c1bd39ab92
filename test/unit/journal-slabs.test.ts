import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLAB_BYTES } from '../../src/http/journal-bytes.js';
import { RequestJournal } from '../../src/http/request-log.js';
import { journalEntry } from '../support/journal.js';

// The journal writes its entries' bytes into slabs outside V8's heap. A slab nothing points at is written again
// rather than a new one made: a journal that only takes entries (every read of the API) must not keep asking for
// memory outside the heap, which V8 answers with full collections. A slab an entry of which was handed out is never
// written again: that entry decodes its bytes when first read.

/** An entry of about 1.3 KB, its answer text numbered. */
const entry = (n: number) =>
  journalEntry({
    requestId: `req-${n}`,
    path: `/r/${n}`,
    answer: `{"n":${n},"pad":"${'x'.repeat(1200)}"}`,
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RequestJournal slabs', () => {
  it('makes no new slab once full, however many entries it takes after', () => {
    const allocate = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const journal = new RequestJournal(1000);
    // Ten times its capacity: the slabs grow to their full size, then turn over.
    for (let n = 0; n < 10_000; n++) journal.add(entry(n));
    const madeWhileFilling = allocate.mock.calls.length;
    for (let n = 10_000; n < 60_000; n++) journal.add(entry(n));
    // 50 000 entries of 1.3 KB: about 62 slabs of 1 MiB if each were new.
    expect(allocate.mock.calls.length).toBe(madeWhileFilling);
    expect(allocate.mock.calls.every(([size]) => size <= SLAB_BYTES)).toBe(true);
    expect(
      journal
        .entries()
        .map((e) => e.requestId)
        .slice(0, 2),
    ).toEqual(['req-59999', 'req-59998']);
    expect(journal.get(59_001)?.answer).toBe(entry(59_000).answer);
  });

  it('never writes again into a slab an entry of which was handed out, read or not yet', () => {
    const journal = new RequestJournal(1000);
    for (let n = 0; n < 5_000; n++) journal.add(entry(n));
    // Handed out and not read yet: its bytes are decoded only when a field is first asked for.
    const unread = journal.entries();
    const one = journal.get(4_001);
    for (let n = 5_000; n < 40_000; n++) journal.add(entry(n));
    expect(one?.requestId).toBe('req-4000');
    expect(one?.answer).toBe(entry(4_000).answer);
    expect(unread).toHaveLength(1000);
    unread.forEach((e, i) => {
      expect(e.requestId).toBe(`req-${4_999 - i}`);
      expect(e.answer).toBe(entry(4_999 - i).answer);
    });
  });

  it('counts through a reader that keeps nothing, so the slabs it read still turn over', () => {
    const allocate = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const journal = new RequestJournal(1000);
    for (let n = 0; n < 10_000; n++) journal.add(entry(n));
    const made = allocate.mock.calls.length;
    for (let n = 10_000; n < 30_000; n++) {
      journal.add(entry(n));
      if (n % 1000 === 0) expect(journal.countWhere((e) => e.path.endsWith('0'))).toBe(100);
    }
    expect(allocate.mock.calls.length).toBe(made);
  });

  it('turns over after a clear, and keeps what was handed out before it', () => {
    const journal = new RequestJournal(100);
    for (let n = 0; n < 500; n++) journal.add(entry(n));
    const before = journal.entries();
    journal.clear();
    for (let n = 500; n < 5_000; n++) journal.add(entry(n));
    expect(before[0]?.answer).toBe(entry(499).answer);
    expect(before[99]?.requestId).toBe('req-400');
    expect(journal.entries()[0]?.answer).toBe(entry(4_999).answer);
    expect(journal.size).toBe(100);
  });
});
