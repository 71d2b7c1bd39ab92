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
