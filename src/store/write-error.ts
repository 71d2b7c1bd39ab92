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

  /** The system error code (`ENOSPC`, `EIO`…), or `EUNKNOWN`. */
  readonly code: string;

  constructor(cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | null)?.code ?? 'EUNKNOWN';
    const reason = REASONS[code] ?? (cause as Error | null)?.message ?? String(cause);
    super(`The sandbox cannot write its state: ${reason} (${code})`, 503, { cause });
    this.code = code;
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
