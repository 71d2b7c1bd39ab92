import { keepName, SandboxError } from '../errors.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EFBIG: 'file too large',
};

/** Error codes of a disk that refuses a write: the sandbox answers 503 for these, never 500. */
export function isWriteFailureCode(code: unknown): boolean {
  return typeof code === 'string' && code in REASONS;
}

/**
 * A change the store could not make durable, and so did not make: the mutation (and every one that came after it
 * and was not on disk yet) was undone in memory. The HTTP layer answers it with 503, its `status`.
 */
export class StoreWriteError extends SandboxError {
  static {
    keepName(StoreWriteError, 'StoreWriteError');
  }

  /** The system error code (`ENOSPC`, `EIO`…), `ETAKENOVER` (see `StateTakenOverError`), or `EUNKNOWN`. */
  readonly code: string;

  /** `message` replaces the one made of the cause's code (a subclass's own words). */
  constructor(cause: unknown, message?: string) {
    const code = (cause as NodeJS.ErrnoException | null)?.code ?? 'EUNKNOWN';
    const reason = REASONS[code] ?? (cause as Error | null)?.message ?? String(cause);
    super(message ?? `The sandbox cannot write its state: ${reason} (${code})`, 503, { cause });
    this.code = code;
  }
}

/** The `code` of a `StateTakenOverError`. */
const TAKEN_OVER = 'ETAKENOVER';

/**
 * The state file's lock is no longer this process's: removed by hand, or taken over by another process after this
 * one stopped touching it for the staleness window (paused by `docker pause`, a suspended VM, SIGSTOP in another PID
 * namespace). From then on the store acknowledges no write, for good: another process may be writing the files,
 * and what this one acknowledged now would be lost to it. A refused write is not written, with one exception: the
 * write on its way to disk at the moment the lock was lost is refused by the check that follows it, and may have
 * reached the journal that the other process loaded. So, unlike a refusal for a full disk, this one does not
 * promise that the change was not kept. 503, as every refused write.
 */
export class StateTakenOverError extends StoreWriteError {
  static {
    keepName(StateTakenOverError, 'StateTakenOverError');
  }

  constructor(
    /** The lock file that is no longer this process's. */
    readonly lockFile: string,
    /**
     * What the lock path holds now: `null` when nothing is there (removed), else the holder its lock names (its pid
     * and host, each null when it does not say: a lock that is not one of a sandbox).
     */
    readonly holder: { pid: number | null; host: string | null } | null,
  ) {
    const cause = Object.assign(new Error(`${lockFile} is no longer this process's lock`), {
      code: TAKEN_OVER,
    });
    super(cause, 'The state file was taken over by another process');
  }
}

/** The same error, whatever was thrown: a write failure is always told as a `StoreWriteError`. */
export function asWriteError(error: unknown): StoreWriteError {
  return error instanceof StoreWriteError ? error : new StoreWriteError(error);
}

/**
 * The state on disk cannot be loaded as it is: start-up stops, and every file is left as it was. The message
 * names the file, and the line or record, and what is wrong.
 */
export class StateFileError extends SandboxError {
  static {
    keepName(StateFileError, 'StateFileError');
  }

  constructor(message: string) {
    // 400, as the control API answers a state import that does not hold.
    super(message, 400);
  }
}

/**
 * The state file's lock path (`FILE.lock`) holds something that is no lock file: a FIFO, a folder, a device, a
 * socket. Start-up stops and changes nothing: it neither waits on a FIFO nor moves a folder away.
 */
export class StateLockPathError extends SandboxError {
  static {
    keepName(StateLockPathError, 'StateLockPathError');
  }

  constructor(
    /** The state file, as it was given. */
    readonly file: string,
    /** The lock path. */
    readonly lockFile: string,
    /** What is there, in words: `a FIFO`, `a folder`, `a character device`… */
    readonly found: string,
  ) {
    super(`${file} cannot be locked: its lock path ${lockFile} is ${found}, not a lock file`, 409);
  }
}

/**
 * Another process holds the state file (its lock, `FILE.lock`, names a holder that runs, or whose heartbeat is
 * fresh): start-up stops and changes nothing. Two processes writing one file would each lose the other's changes.
 */
export class StateFileInUseError extends SandboxError {
  static {
    keepName(StateFileInUseError, 'StateFileInUseError');
  }

  constructor(
    /** The state file, as it was given. */
    readonly file: string,
    /** The lock file that names the holder. */
    readonly lockFile: string,
    /** The holder's process id; null when its lock does not say. */
    readonly pid: number | null,
    /** The holder's host name when it is another host; null on this one. */
    readonly host: string | null,
  ) {
    const who = pid === null ? 'another process' : `process ${pid}`;
    super(`${file} is in use by ${who}${host === null ? '' : ` on host ${host}`} (lock ${lockFile})`, 409);
  }
}
