import { type FileHandle, open, readFile, rename, truncate } from 'node:fs/promises';

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

export class JournalCorruptError extends Error {}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Reads a journal: every complete line, in order. A last line without its newline was torn by a crash in the
 * middle of a write (it was never acknowledged), so it is cut off the file.
 */
export async function readJournal(path: string): Promise<JournalEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) await truncate(path, Buffer.byteLength(text.slice(0, end)));
  return parseLines(text.slice(0, end), path);
}

function parseLines(text: string, path: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    if (line === '') continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      throw new JournalCorruptError(`${path}: line ${lineNo} is not valid JSON; the journal is corrupt`);
    }
  }
  return entries;
}

/**
 * An append-only journal with group commit: lines appended while a write is on its way to disk are written
 * together by the next write, and each `append` resolves once its line has been fsynced. Its cost does not
 * depend on the size of the state, only on the size of the change.
 */
export class Journal {
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | null = null;
  private paused = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  /** Writes (each followed by an fsync) so far: fewer than appends when commits were grouped. */
  public flushes = 0;

  private constructor(
    private readonly path: string,
    private fh: FileHandle,
    /** Bytes in the file now. */
    public size: number,
  ) {}

  static async open(path: string): Promise<Journal> {
    // Appends go to the end whatever the position; reading is for `dropThrough`.
    const fh = await open(path, 'a+');
    const { size } = await fh.stat();
    return new Journal(path, fh, size);
  }

  /** Queues a line (with its newline) and resolves once it is durable. */
  append(line: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal is closed'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push(line);
      this.waiters.push({ resolve, reject });
      this.kick();
    });
  }

  /** Resolves once every appended line is on disk. */
  idle(): Promise<void> {
    if (!this.flushing && this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs `fn` with no write in flight and none starting; lines appended meanwhile wait and are written after.
   * Used to swap files under the journal (reset, import, compaction).
   */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.paused++;
    try {
      while (this.flushing) await this.flushing;
      return await fn();
    } finally {
      this.paused--;
      this.kick();
    }
  }

  /** Empties the file. Call inside `exclusive`. */
  async clear(): Promise<void> {
    await this.fh.truncate(0);
    await this.fh.datasync();
    this.size = 0;
  }

  /**
   * Keeps only the entries with a sequence number above `seq`. The first `coveredBytes` of the file hold none
   * of those (they were on disk before the snapshot that covers `seq` was taken), so only the rest is read.
   * Call inside `exclusive`.
   */
  async dropThrough(seq: number, coveredBytes: number): Promise<void> {
    const tailBytes = Math.max(0, this.size - coveredBytes);
    const tail = Buffer.alloc(tailBytes);
    if (tailBytes > 0) await this.fh.read(tail, 0, tailBytes, coveredBytes);
    const kept = tail
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '' && lineSeq(line) > seq)
      .map((line) => `${line}\n`)
      .join('');
    const tmp = `${this.path}.tmp`;
    const fh = await open(tmp, 'w');
    await fh.writeFile(kept);
    await fh.datasync();
    await fh.close();
    await rename(tmp, this.path);
    await this.fh.close();
    this.fh = await open(this.path, 'a+');
    this.size = Buffer.byteLength(kept);
  }

  /** Writes what is pending and closes the file. */
  async close(): Promise<void> {
    await this.idle();
    this.closed = true;
    await this.fh.close();
  }

  private kick(): void {
    if (this.flushing || this.paused > 0) return;
    if (this.pending.length === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.flushing = this.flushOnce().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async flushOnce(): Promise<void> {
    const data = this.pending.join('');
    const waiters = this.waiters;
    this.pending = [];
    this.waiters = [];
    try {
      await this.fh.write(data);
      await this.fh.datasync();
      this.flushes++;
      this.size += Buffer.byteLength(data);
      for (const w of waiters) w.resolve();
    } catch (error) {
      for (const w of waiters) w.reject(error);
    }
  }
}
