import {
  type FileStat,
  nodeFileSystem,
  type StoreFile,
  type StoreFileSystem,
} from '../../src/store/file-system.js';

type Operation = 'write' | 'datasync' | 'truncate' | 'rename' | 'open' | 'link' | 'stat' | 'readFile';

/** A failure to inject: the next `times` calls of `op` on a path ending with `path` fail with `code`. */
export interface Fault {
  op: Operation;
  code: 'ENOSPC' | 'EIO' | 'EDQUOT';
  /** The end of the path it applies to (`.wal`, `db.json.tmp`); any path when absent. */
  path?: string;
  /** How many calls fail (default 1); the fault is spent after that. */
  times?: number;
  /** Calls of that kind that go through first (default 0). */
  after?: number;
}

function errnoError(code: string, op: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${op} '${path}'`), { code, syscall: op, path });
}

/**
 * The real file system with a layer in between that fails like a disk does: injected errors on write, fsync,
 * truncate, rename, open, stat or a whole-file read, and a byte budget (`spaceLeft`) past which a write is cut short (the bytes that fit
 * really reach the file, as on a full disk) and the next one fails with ENOSPC. `spaceLeft = null` is a disk
 * with room again.
 */
export class FaultyFileSystem implements StoreFileSystem {
  /** Bytes that still fit; null: no limit. */
  spaceLeft: number | null = null;
  /** Every call, in order, as `op path`: for tests that check what was touched. */
  readonly calls: string[] = [];
  private faults: (Fault & { left: number; skip: number })[] = [];
  private holds: { op: Operation; path: string; reached: () => void; released: Promise<void> }[] = [];

  /** Adds a fault; it fires on the matching calls that follow. */
  inject(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1, skip: fault.after ?? 0 });
  }

  /**
   * Holds the next call of `op` on a path ending with `path` before it reaches the disk: `reached` resolves when
   * it comes, and it goes on once `release` is called. A test does something at that very moment (takes the state
   * lock away while a write is on its way).
   */
  hold(op: Operation, path: string): { reached: Promise<void>; release: () => void } {
    let reached = () => {};
    let release = () => {};
    const isReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.holds.push({ op, path, reached, released });
    return { reached: isReached, release };
  }

  /** Drops every fault and the space limit: the disk works again. */
  heal(): void {
    this.faults = [];
    this.spaceLeft = null;
  }

  /** Waits while a `hold` holds this call. */
  private async held(op: Operation, path: string): Promise<void> {
    const i = this.holds.findIndex((h) => h.op === op && path.endsWith(h.path));
    const hold = this.holds[i];
    if (!hold) return;
    this.holds.splice(i, 1);
    hold.reached();
    await hold.released;
  }

  private check(op: Operation, path: string): void {
    this.calls.push(`${op} ${path}`);
    const fault = this.faults.find((f) => f.op === op && f.left > 0 && (!f.path || path.endsWith(f.path)));
    if (!fault) return;
    if (fault.skip > 0) {
      fault.skip--;
      return;
    }
    fault.left--;
    throw errnoError(fault.code, op, path);
  }

  async open(path: string, flags: 'a+' | 'w' | 'r' | 'wx'): Promise<StoreFile> {
    this.check('open', path);
    const file = await nodeFileSystem.open(path, flags);
    return {
      write: async (data, offset, length) => {
        await this.held('write', path);
        this.check('write', path);
        if (this.spaceLeft === null) return file.write(data, offset, length);
        if (this.spaceLeft === 0) throw errnoError('ENOSPC', 'write', path);
        const fits = Math.min(length, this.spaceLeft);
        const result = await file.write(data, offset, fits);
        this.spaceLeft -= result.bytesWritten;
        return result;
      },
      read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
      datasync: async () => {
        await this.held('datasync', path);
        this.check('datasync', path);
        await file.datasync();
      },
      truncate: async (length) => {
        this.check('truncate', path);
        await file.truncate(length);
      },
      stat: () => file.stat(),
      utimes: (atime, mtime) => file.utimes(atime, mtime),
      chmod: (mode) => file.chmod(mode),
      close: () => file.close(),
    };
  }

  modeOf(path: string): Promise<number | null> {
    return nodeFileSystem.modeOf(path);
  }

  async stat(path: string): Promise<FileStat> {
    await this.held('stat', path);
    this.check('stat', path);
    return nodeFileSystem.stat(path);
  }

  async readFile(path: string): Promise<Buffer> {
    this.check('readFile', path);
    return nodeFileSystem.readFile(path);
  }

  async link(existing: string, to: string): Promise<void> {
    this.check('link', to);
    await nodeFileSystem.link(existing, to);
  }

  resolveLinks(path: string): Promise<string> {
    return nodeFileSystem.resolveLinks(path);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.held('rename', to);
    this.check('rename', to);
    await nodeFileSystem.rename(from, to);
  }

  remove(path: string): Promise<void> {
    return nodeFileSystem.remove(path);
  }

  mkdir(path: string): Promise<void> {
    return nodeFileSystem.mkdir(path);
  }

  syncDir(path: string): Promise<void> {
    return nodeFileSystem.syncDir(path);
  }
}
