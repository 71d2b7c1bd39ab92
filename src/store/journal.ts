import { replaceFile, type StoreFile, type StoreFileSystem, writeFully } from './file-system.js';
import { TEXT_WRITER_BYTES, TextWriter } from './text-writer.js';
import { asWriteError } from './write-error.js';

/** One change: put a record (`record` set) or delete one (`record` null). */
export type Op = [collection: string, id: string, record: unknown];
/** One committed mutation: its sequence number and its changes. */
export interface JournalEntry {
  q: number;
  o: Op[];
}

const SEQ_PREFIX = /^\{"q":(\d+),/;

/** The sequence number of a journal line, read without parsing the whole line. */
export function lineSeq(line: string): number {
  const m = SEQ_PREFIX.exec(line);
  return m ? Number(m[1]) : Number.NaN;
}

/** Enough of a line's first bytes to hold `{"q":`, a sequence number of up to 16 digits, and the comma. */
const SEQ_PREFIX_BYTES = 24;

/**
 * Copies to `out` the lines between byte `start` and byte `end` of `file` whose sequence number is above `seq`,
 * a quarter MB at a time, judging each line by its first bytes. The journal written while a compaction runs can
 * be tens of MB under load: read whole, turned into one string, split and joined again, it cost some 200 MB at
 * once, just as the snapshot was written. A line that is blank or cut short is dropped, as before.
 */
async function copyEntriesAbove(
  file: StoreFile,
  start: number,
  end: number,
  seq: number,
  out: TextWriter,
): Promise<void> {
  const chunk = Buffer.allocUnsafe(TEXT_WRITER_BYTES);
  /** The first bytes of the current line, while it is not judged yet. */
  let head = Buffer.alloc(0);
  /** Whether the current line is kept; null while its first bytes are still coming. */
  let keep: boolean | null = null;
  const judge = () => lineSeq(head.toString('latin1')) > seq;
  for (let position = start; position < end; ) {
    const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, end - position), position);
    if (bytesRead <= 0) throw Object.assign(new Error('the journal is shorter than it was'), { code: 'EIO' });
    position += bytesRead;
    let i = 0;
    while (i < bytesRead) {
      const newline = chunk.indexOf(0x0a, i);
      const stop = newline === -1 || newline >= bytesRead ? bytesRead : newline + 1;
      if (keep === null) {
        // Only the first bytes are gathered (copied: the chunk is reused); the rest of a line streams through.
        const take = Math.min(stop, i + SEQ_PREFIX_BYTES - head.length);
        head = Buffer.concat([head, chunk.subarray(i, take)]);
        i = take;
        if (head.length < SEQ_PREFIX_BYTES && head.at(-1) !== 0x0a) continue;
        keep = judge();
        if (keep) await out.addBytes(head);
        if (head.at(-1) === 0x0a) {
          head = Buffer.alloc(0);
          keep = null;
        }
        continue;
      }
      if (keep) await out.addBytes(chunk.subarray(i, stop));
      i = stop;
      if (chunk[stop - 1] === 0x0a) {
        head = Buffer.alloc(0);
        keep = null;
      }
    }
  }
  // The file ends on a whole line (the loader saw to that); were it not, a kept last line still gets its end.
  if (keep === null && head.length > 0 && judge()) {
    await out.addBytes(head);
    keep = true;
  }
  if (keep) await out.addBytes(Buffer.from('\n'));
}

/** A line of blanks that a probe writes and takes back: the loader skips blank lines. */
const PROBE = Buffer.from(`${' '.repeat(4095)}\n`);

/**
 * The journal file: whole entries appended and fsynced. It knows how many bytes of whole entries the file holds
 * (`size`); a write that fails part way is cut back to that, so the file never keeps a fragment in the middle. If
 * even the cut fails, the file is marked and cut before the next write.
 */
export class Journal {
  /** fsynced writes so far. */
  public flushes = 0;
  /** The file may hold bytes past `size` (a failed write that could not be cut back yet). */
  private dirty = false;
  /** Reused by every write, one at a time (the store never has two in flight). */
  private readonly buffer = Buffer.allocUnsafe(TEXT_WRITER_BYTES);

  private constructor(
    private readonly fs: StoreFileSystem,
    private readonly path: string,
    private fh: StoreFile | null,
    /** Bytes of whole, durable entries in the file. */
    public size: number,
    private readonly beforeReplace: () => Promise<void>,
  ) {}

  /**
   * Opens the journal for appending; the file must end on a whole entry (the loader saw to that). `beforeReplace`
   * runs last before a rewritten journal (`dropThrough`) is renamed into place, and may refuse it (the state lock's
   * check).
   */
  static async open(
    fs: StoreFileSystem,
    path: string,
    beforeReplace: () => Promise<void> = async () => {},
  ): Promise<Journal> {
    const fh = await fs.open(path, 'a+');
    const { size } = await fh.stat();
    return new Journal(fs, path, fh, size, beforeReplace);
  }

  /**
   * Appends `lines` (each a whole entry, with its newline) and fsyncs them. On any failure the file is cut back
   * to its last whole entry and a `StoreWriteError` is thrown: nothing of `lines` counts as written.
   */
  async write(lines: readonly string[]): Promise<void> {
    let written = 0;
    try {
      const fh = await this.ready();
      // Encoded line by line into the journal's own buffer: no string of the whole group, no new Buffer for it.
      const out = new TextWriter(fh, this.buffer);
      for (const line of lines) await out.add(line);
      await out.flush();
      written = out.written;
      await fh.datasync();
    } catch (error) {
      await this.cutBack();
      throw asWriteError(error);
    }
    this.flushes++;
    this.size += written;
  }

  /**
   * Whether a write of a few KB would go through now: writes a blank line, fsyncs, and takes it back. Used to
   * learn that space has returned without risking a real entry.
   */
  async probe(): Promise<void> {
    try {
      const fh = await this.ready();
      await writeFully(fh, PROBE);
      await fh.datasync();
    } catch (error) {
      await this.cutBack();
      throw asWriteError(error);
    }
    await this.cutBack();
    if (this.dirty)
      throw asWriteError(Object.assign(new Error('cannot cut the journal back'), { code: 'EIO' }));
  }

  /** Empties the file (everything in it is in the snapshot now). */
  async clear(): Promise<void> {
    const fh = await this.ready();
    await fh.truncate(0);
    await fh.datasync();
    this.size = 0;
  }

  /**
   * Keeps only the entries with a sequence number above `seq`. The first `coveredBytes` of the file hold none
   * of those (they were on disk before the snapshot that covers `seq` was taken), so only the rest is read. The
   * new file is written aside and renamed over the old one: a failure leaves the old one, which is still right
   * (its entries up to `seq` are skipped at load, the snapshot holds them).
   */
  async dropThrough(seq: number, coveredBytes: number): Promise<void> {
    const fh = await this.ready();
    let kept = 0;
    try {
      await replaceFile(
        this.fs,
        this.path,
        async (out) => {
          const writer = new TextWriter(out);
          await copyEntriesAbove(fh, Math.min(coveredBytes, this.size), this.size, seq, writer);
          await writer.flush();
          kept = writer.written;
        },
        this.beforeReplace,
      );
    } catch (error) {
      throw asWriteError(error);
    }
    // The old handle points at the file just replaced: from here on only the new one is right.
    this.fh = null;
    await fh.close().catch(() => undefined);
    this.size = kept;
    await this.ready();
  }

  /** Closes the file. */
  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = null;
    await fh?.close();
  }

  /** The open file, reopened if a rename replaced it, and cut back first if a failed write left bytes. */
  private async ready(): Promise<StoreFile> {
    this.fh ??= await this.fs.open(this.path, 'a+');
    if (this.dirty) {
      await this.fh.truncate(this.size);
      await this.fh.datasync();
      this.dirty = false;
    }
    return this.fh;
  }

  private async cutBack(): Promise<void> {
    this.dirty = true;
    try {
      await this.ready();
    } catch {
      // Still dirty: the next write cuts the file back before it appends.
    }
  }
}
