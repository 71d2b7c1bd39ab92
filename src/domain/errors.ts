/**
 * The statuses an error answer may carry: every 4xx and 5xx Hono sends with a body (a scenario may answer any of
 * them). Declared here, not taken from Hono, so that the domain and the services need nothing of the HTTP layer.
 */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511;

export interface FieldError {
  field: string;
  message: string;
}

/** The one error services throw; the app's error handler turns it into the error envelope. */
export class ApiError extends Error {
  constructor(
    public readonly status: ErrorStatus,
    message: string,
    public readonly errors?: FieldError[],
    /** What a drain that gave up was still waiting for, sent as `waiting` (control API). */
    public readonly waiting?: object,
    /**
     * Sent as `data` (null otherwise; always null on the bank's API, as its docs say): the count and the nearest
     * requests of a request verification that does not hold (control API).
     */
    public readonly data?: object,
  ) {
    super(message);
  }
}
