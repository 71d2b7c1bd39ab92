/**
 * Gives a class its own name back. The minified build renames classes, and `error.name`, `constructor.name` and
 * stack traces should say `ConfigError`, not `ue`. (esbuild's `keepNames` does it for every function instead, at a
 * call per closure created: a fifth of the cheapest read.)
 */
export function keepName(cls: abstract new (...args: never[]) => unknown, name: string): void {
  Object.defineProperty(cls, 'name', { value: name, configurable: true });
}

/**
 * The errors the package throws at code that uses it. Each has a real class name (kept through the build), an
 * HTTP-like `status` (what the control API answers for the same mistake) and a message that names the option as
 * code spells it.
 */
export class SandboxError extends Error {
  static {
    keepName(SandboxError, 'SandboxError');
  }

  constructor(
    message: string,
    /**
     * The status the control API gives the same mistake: 400 bad input, 404 unknown, 408 timeout, 409 conflict,
     * 503 a disk that refuses a write.
     */
    readonly status: number = 400,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The control API answered a failure (over HTTP: `connectSandbox`, the shell commands, `requests()`). */
export class ControlApiError extends SandboxError {
  static {
    keepName(ControlApiError, 'ControlApiError');
  }

  constructor(
    message: string,
    status: number,
    /** The envelope's `data` (null on most errors). */
    readonly data: unknown = null,
    /** The envelope's `errors`: each bad field and what is wrong with it, on a 400. */
    readonly errors: readonly { field: string; message: string }[] = [],
  ) {
    super(message, status);
  }
}

/**
 * The sandbox could not be reached at all (refused, unknown host, the connection dropped, an answer that is not
 * the control API's). `status` is 503, as a proxy would answer for it.
 */
export class SandboxUnreachableError extends SandboxError {
  static {
    keepName(SandboxUnreachableError, 'SandboxUnreachableError');
  }

  constructor(
    message: string,
    /** The base URL that was tried. */
    readonly url: string,
  ) {
    super(message, 503);
  }
}

/** `verify()` found another number of requests than expected: the 409 of `POST /__sandbox/requests/verify`. */
export class VerificationError<Entry = unknown> extends SandboxError {
  static {
    keepName(VerificationError, 'VerificationError');
  }

  constructor(
    message: string,
    /** How many requests matched the filters. */
    readonly count: number,
    /** What was expected, as sent: `{atLeast: 1}`, `{exactly: 2}`, `{atMost: 0}`. */
    readonly expected: unknown,
    /** The entries closest to the filters, to see what was sent instead. */
    readonly nearest: readonly Entry[],
  ) {
    super(message, 409);
  }
}
