import { type StoreFile, writeFully } from './file-system.js';

/** Bytes of the buffer a writer fills before it writes: below V8's large-object size, and few writes. */
export const TEXT_WRITER_BYTES = 256 * 1024;

/**
 * Writes text to a file through one buffer, filled and written again and again: each piece of text is encoded
 * into it as it comes, so nothing the size of the whole output is ever built. The snapshot and the journal used to
 * join their text into one string and copy that into a new Buffer for every write: at 100 000 records a
 * compaction made some 100 MB of such strings, every one of them large enough for V8 to put straight into the
 * old generation, where they stayed until the next full collection, and as many bytes of new Buffers for malloc.
 * The soak benchmark saw the peak of the process fall by some 190 MB when compactions stopped. The pieces here
 * are each a record or a journal line: short-lived strings that die young. One call at a time: each must be
 * awaited before the next.
 */
export class TextWriter {
  private used = 0;
  /** Bytes written to the file so far. */
  public written = 0;

  constructor(
    private readonly file: StoreFile,
    private readonly buffer: Buffer = Buffer.allocUnsafe(TEXT_WRITER_BYTES),
  ) {}

  /** Adds `text`, writing out what the buffer holds first when it might not fit. */
  async add(text: string): Promise<void> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a bound that needs no pass over the text.
    const most = text.length * 3;
    if (most > this.buffer.length) return this.addBytes(Buffer.from(text));
    if (most > this.buffer.length - this.used) await this.flush();
    this.used += this.buffer.write(text, this.used);
  }

  /** Adds bytes as they are (a `bytes` the caller reuses may be changed once this resolves). */
  async addBytes(bytes: Uint8Array): Promise<void> {
    if (bytes.length > this.buffer.length - this.used) await this.flush();
    if (bytes.length > this.buffer.length) {
      await writeFully(this.file, bytes);
      this.written += bytes.length;
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** Writes out what the buffer holds. */
  async flush(): Promise<void> {
    if (this.used === 0) return;
    const used = this.used;
    this.used = 0;
    await writeFully(this.file, this.buffer.subarray(0, used));
    this.written += used;
  }
}
