/**
 * The settings as code gives them to `startSandbox()`, `createSandbox()` and `resolveConfig()`. Each option is the
 * camelCase of its flag (`bulkItemDelay` for `--bulk-item-delay`) and takes the same values; anything left out
 * takes its default. An option no setting has (a misspelt `bulkItemDelayMs`) is refused with a `ConfigError`
 * naming it, in plain JavaScript too. A type test keeps this list equal to the settings of `config.ts`.
 */
export interface ConfigInput {
  /** TCP port to listen on; 0 picks a free one. Default 4010 on the CLI; in code a free port (0). */
  port?: number;
  /** Address to listen on. Default `127.0.0.1` (the Docker image sets `0.0.0.0`). */
  host?: string;
  /**
   * State file; its journal is `FILE.wal` beside it. Default `.sandbox/db.json` on the CLI; in code the state is
   * kept in memory unless `data` is given.
   */
  data?: string;
  /** Keep the state in memory only, nothing on disk. Default off on the CLI; in code on unless `data` is given. */
  inMemory?: boolean;
  /** Folder of fixture files to seed from. Default: the fixtures embedded in the package. */
  fixtures?: string;
  /** Seed of the generated fixtures and identifiers, 0 to 4294967295. Default 1. */
  seed?: number;
  /** Failure scenario at start-up: a ready one by name, or a JSON file. Default `default`. */
  scenario?: string;
  /** Require header `x-sandbox-token` with this value on `/__sandbox`. Default: none, the control API is open. */
  controlToken?: string;
  /**
   * Host names a request may name in its `Host` header besides loopback ones (and, listening off loopback, IP
   * addresses and single-label names such as a compose service's), while no `controlToken` is set. Default: none.
   */
  allowedHosts?: string[];
  /**
   * Forward every `/api/v1` request to this base URL (the real bank's sandbox, ending in `/api/v1`, without a user or
   * a password: credentials go in the app's headers) and report where its answers differ from the routes the
   * sandbox emulates (`GET /__sandbox/drift`). Default: none, the sandbox answers.
   */
  upstream?: string;
  /** Milliseconds the upstream has to answer, 1 to 600000; past it the app gets 502. Default 30000. */
  upstreamTimeout?: number;
  /**
   * Largest upstream answer, in bytes counted after decompression, 1 to 536870888; a larger one is cut off and the
   * app gets 502. Default 16777216 (16 MiB).
   */
  upstreamMaxBody?: number;
  /**
   * With `upstream`: a `.json` file the upstream's answers are written to as they come, as a scenario of custom
   * answers (method, path, status, body; secret-looking values masked) that `scenario: FILE` replays offline. A
   * file that cannot be written makes the start fail (a `ConfigError`) before any request is forwarded; the file is
   * replaced only once the start has succeeded, and written at most every 250 ms while answers come, then at
   * `close()`. Default: none.
   */
  record?: string;
  /** Access token lifetime, in seconds, 1 to 315360000 (10 years). Default 3600. */
  tokenTtl?: number;
  /** Largest JSON request body, in bytes (413 above). Default 1048576 (1 MiB). */
  bodyLimit?: number;
  /** Largest state import (`PUT /__sandbox/state`), in bytes, at most 536870888. Default 67108864 (64 MiB). */
  importLimit?: number;
  /** How long a rotated-out secret key keeps working, in seconds, 0 to 315360000. Default 0. */
  secretGrace?: number;
  /** Member invitation lifetime, in seconds, 1 to 315360000. Default 172800 (48 hours). */
  invitationTtl?: number;
  /** Lifetime of a temporal virtual account, in seconds, 1 to 315360000. Default 1800. */
  virtualAccountTtl?: number;
  /**
   * How long after a mispaid incoming payment (`mispaid: "refund"`) it is refunded, in ms on the sandbox clock, 0 to
   * 2592000000. Default 600000 (10 minutes).
   */
  refundDelay?: number;
  /** Largest uploaded registration file, in bytes. Default 5242880 (5 MiB). */
  uploadLimit?: number;
  /** Bulk transfer items processed at once, 1 to 1000. Default 8. */
  bulkConcurrency?: number;
  /** How long each bulk item stays `processing`, in milliseconds, 0 to 600000. Default 0. */
  bulkItemDelay?: number;
  /** How long a webhook receiver has to answer, in milliseconds, 1 to 600000. Default 5000. */
  webhookTimeout?: number;
  /** Wait before the first webhook retry, in milliseconds, 0 to 3600000. Default 1000. */
  webhookRetryBase?: number;
  /** Each webhook retry waits this many times longer than the one before, 1 to 100. Default 2. */
  webhookRetryFactor?: number;
  /**
   * Webhook attempts before a delivery is `failed`, the first included, 1 to 100; the last retry's wait
   * (base · factor^(attempts − 2), in milliseconds) must fit a timer (2147483647 ms). Default 6.
   */
  webhookAttempts?: number;
  /**
   * A client's webhook deliveries on their first attempt at once, started in the order they were made; retries
   * never wait for one. 1 to 100 (1: first attempts strictly one after another). Default 4.
   */
  webhookConcurrency?: number;
  /** Webhook deliveries kept per client; past it the oldest finished ones are dropped, pending ones never. Default 1000. */
  deliveryLogSize?: number;
  /** Request log lines: `pretty` or `json`. Default `pretty`. */
  logFormat?: 'pretty' | 'json';
  /** No request log lines and a one-line banner. Default off on the CLI; in code on unless `quiet: false`. */
  quiet?: boolean;
  /** Requests kept for `GET /__sandbox/requests`. Default 1000. */
  journalSize?: number;
  /**
   * Largest request or response body the request journal keeps, in bytes; a larger one is recorded by its size.
   * Default 65536 (64 KiB).
   */
  journalBodyLimit?: number;
  /** Bytes the request journal may hold (kept bodies, plus 1024 per entry), at least 1024; past it the oldest go. Default 67108864 (64 MiB). */
  journalBytes?: number;
  /** Journal size, in bytes, that triggers a background snapshot, at least 1024. Default 16777216 (16 MiB). */
  compactAfter?: number;
  /**
   * Isolated sandboxes (`POST /__sandbox/sandboxes`, `isolate()`) that may exist at once; one more is refused with
   * 429; 0 allows none. Default 100.
   */
  maxSandboxes?: number;
  /**
   * Seconds an isolated sandbox may go unused (no request, drain, dashboard page or webhook delivery of its own in
   * flight) before it is dropped, on real time; 0 keeps them until deleted. Default 1800 (30 min).
   */
  sandboxIdleTtl?: number;
  /**
   * Bytes the request journals of all isolated sandboxes may hold together (bodies, plus 1024 per entry; the root
   * sandbox's is not counted), on top of each one's `journalBytes`: past it, the oldest entries of the largest
   * journals go first. Default 268435456 (256 MiB).
   */
  sandboxesJournalBytes?: number;
}
