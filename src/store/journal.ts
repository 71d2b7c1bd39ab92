import { type StoreFile, type StoreFileSystem, writeFully } from './file-system.js';
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
  ) {}

  /** Opens the journal for appending; the file must end on a whole entry (the loader saw to that). */
  static async open(fs: StoreFileSystem, path: string): Promise<Journal> {
    const fh = await fs.open(path, 'a+');
    const { size } = await fh.stat();
    return new Journal(fs, path, fh, size);
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
    const tailBytes = Math.max(0, this.size - coveredBytes);
    const tail = Buffer.alloc(tailBytes);
    if (tailBytes > 0) await fh.read(tail, 0, tailBytes, coveredBytes);
    const kept = Buffer.from(
      tail
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '' && lineSeq(line) > seq)
        .map((line) => `${line}\n`)
        .join(''),
    );
    const tmp = `${this.path}.tmp`;
    try {
      const out = await this.fs.open(tmp, 'w');
      try {
        await writeFully(out, kept);
        await out.datasync();
      } finally {
        await out.close();
      }
      await this.fs.rename(tmp, this.path);
    } catch (error) {
      await this.fs.remove(tmp).catch(() => undefined);
      throw asWriteError(error);
    }
    // The old handle points at the file just replaced: from here on only the new one is right.
    this.fh = null;
    await fh.close().catch(() => undefined);
    this.size = kept.length;
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
