/**
 * The errors the package throws at code that uses it. Each has a real class name (kept through the build), an
 * HTTP-like `status` (what the control API answers for the same mistake) and a message that names the option as
 * code spells it.
 */
export class SandboxError extends Error {
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
