import { parseArgs } from 'node:util';
import * as z from 'zod';
import { retryDelayMs } from './domain/backoff.js';
import { nearestName } from './domain/nearest-name.js';
import { keepName, SandboxError } from './errors.js';
import type { ConfigInput } from './options.js';
import { embeddedFixturesDir } from './store/fixtures.js';

/**
 * The longest lifetime a time setting may give (10 years, in seconds). A lifetime is added to the clock's reading
 * to stamp an expiry; bounded so, the sum stays far inside what a JavaScript `Date` can hold (±8.64e15 ms), where
 * an unbounded one made virtual account creation answer 500.
 */
export const MAX_LIFETIME_SECONDS = 10 * 365 * 86_400;
/**
 * The longest string V8 builds (2^29 − 24 characters): a state import is read into one, so no limit can pass it.
 */
export const MAX_STRING_LENGTH = 2 ** 29 - 24;
/** The longest wait a Node timer holds (2^31 − 1 ms, about 24.8 days); a longer one fires at once instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `--upstream` as a URL: http or https, its path ending in `/api/v1`, no user or password, no query or fragment;
 * else undefined.
 */
export function upstreamUrl(text: string): URL | undefined {
  const url = parsedUrl(text);
  const fits =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    /\/api\/v1\/?$/.test(url.pathname) &&
    !hasUserinfo(url) &&
    url.search === '' &&
    url.hash === '';
  return fits ? url : undefined;
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const hasUserinfo = (url: URL) => url.username !== '' || url.password !== '';

/** The largest answer `--upstream-max-body` may allow: the proxy reads a JSON answer into one string. */
const MAX_UPSTREAM_BODY = MAX_STRING_LENGTH;

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z.union([
  z.boolean(),
  z
    .enum(['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off', ''])
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v)),
]);

interface Setting<S extends z.ZodType> {
  flag: string;
  env: string;
  doc: string;
  schema: S;
  /** A flag without a value (`--in-memory`). */
  boolean: boolean;
}
const setting = <S extends z.ZodType>(
  flag: string,
  env: string,
  doc: string,
  schema: S,
  boolean = false,
): Setting<S> => ({
  flag,
  env,
  doc,
  schema,
  boolean,
});

/** Every setting: its flag, its environment variable, what it does (with its default) and its schema. */
export const settings = {
  port: setting(
    'port',
    'PORT',
    'TCP port to listen on; 0 picks a free one (default 4010)',
    int(0, 65535).default(4010),
  ),
  host: setting(
    'host',
    'HOST',
    'address to listen on (default 127.0.0.1; the Docker image sets 0.0.0.0)',
    z.string().min(1).default('127.0.0.1'),
  ),
  data: setting(
    'data',
    'SANDBOX_DATA',
    'state file, one process per file; its journal FILE.wal and its lock FILE.lock sit beside it (default .sandbox/db.json)',
    z.string().min(1).default('.sandbox/db.json'),
  ),
  inMemory: setting(
    'in-memory',
    'SANDBOX_IN_MEMORY',
    'keep the state in memory only, nothing on disk (default off)',
    bool.default(false),
    true,
  ),
  fixtures: setting(
    'fixtures',
    'SANDBOX_FIXTURES',
    'folder of fixture files to seed from (default: the embedded fixtures)',
    z.string().min(1).default(embeddedFixturesDir),
  ),
  seed: setting(
    'seed',
    'SANDBOX_SEED',
    'seed of the generated fixtures and identifiers (default 1)',
    int(0, 2 ** 32 - 1).default(1),
  ),
  scenario: setting(
    'scenario',
    'SANDBOX_SCENARIO',
    'failure scenario at start-up: a ready one by name, or a JSON file (default: default)',
    z.string().min(1).default('default'),
  ),
  controlToken: setting(
    'control-token',
    'SANDBOX_CONTROL_TOKEN',
    'require header x-sandbox-token with this value on /__sandbox (default: open)',
    z.string().min(1).optional(),
  ),
  allowedHosts: setting(
    'allowed-hosts',
    'SANDBOX_ALLOWED_HOSTS',
    'host names a request may name in its Host header besides loopback ones (and, off loopback, IP addresses and single-label names), comma-separated, while no --control-token is set (default: none)',
    z
      .union([z.string(), z.array(z.string())])
      .default('')
      .transform((given) =>
        (Array.isArray(given) ? given : given.split(','))
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== ''),
      ),
  ),
  upstream: setting(
    'upstream',
    'SANDBOX_UPSTREAM',
    "forward every /api/v1 request to this http(s) base URL ending in /api/v1, without a user or password (the real bank's sandbox) and report where its answers differ from the routes the sandbox emulates, at GET /__sandbox/drift (default: off, the sandbox answers)",
    z
      .string()
      .optional()
      .superRefine((text, ctx) => {
        if (text === undefined || upstreamUrl(text) !== undefined) return;
        // A user or a password in the URL went into every 502 message, the journal and the report; the app's
        // own credentials go upstream in its headers. The message never repeats the URL: it holds the password.
        const url = parsedUrl(text);
        ctx.addIssue({
          code: 'custom',
          message:
            url !== undefined && hasUserinfo(url)
              ? 'must not hold a user or a password: credentials belong in headers, which the app sends and the sandbox forwards as they are'
              : 'must be an http or https URL ending in /api/v1, without a query (for example https://bank.example/api/v1)',
        });
      }),
  ),
  upstreamTimeout: setting(
    'upstream-timeout',
    'SANDBOX_UPSTREAM_TIMEOUT',
    'milliseconds the upstream has to answer, at most 600000; past it the app gets 502 (default 30000)',
    int(1, 600_000).default(30_000),
  ),
  /**
   * The largest upstream answer the proxy takes, in bytes after decompression (default 16777216, 16 MiB; at most
   * 536870888). Past it the proxy stops reading, closes the connection and answers 502: an endless or
   * decompression-bomb answer costs at most this much memory.
   */
  upstreamMaxBody: setting(
    'upstream-max-body',
    'SANDBOX_UPSTREAM_MAX_BODY',
    'largest upstream answer in bytes, counted after decompression, at most 536870888; a larger one is cut off and the app gets 502 (default 16777216, 16 MiB)',
    int(1, MAX_UPSTREAM_BODY).default(16 * 1_048_576),
  ),
  /**
   * With `--upstream`: a `.json` file the upstream's answers are written to as they come, as a scenario of custom
   * answers (method, path, status, body; secret-looking values masked) that `--scenario FILE` replays offline
   * (default: off). Checked at start-up: a file that cannot be written stops it before any request is forwarded; a
   * start refused for any reason leaves an earlier file as it was.
   */
  record: setting(
    'record',
    'SANDBOX_RECORD',
    'with --upstream, write what the upstream answers to this .json file as a scenario of custom answers (secret-looking values masked), which --scenario FILE replays offline; written once started, then at most every 250 ms while answers come and at the stop, at most 200 rules (default: off)',
    z
      .string()
      .min(1)
      .refine((file) => file.endsWith('.json'), 'must be a .json file: --scenario FILE replays it')
      .optional(),
  ),
  tokenTtl: setting(
    'token-ttl',
    'SANDBOX_TOKEN_TTL',
    'access token lifetime in seconds, at most 315360000 (10 years) (default 3600)',
    int(1, MAX_LIFETIME_SECONDS).default(3600),
  ),
  bodyLimit: setting(
    'body-limit',
    'SANDBOX_BODY_LIMIT',
    'largest JSON request body in bytes (default 1048576)',
    int(1).default(1_048_576),
  ),
  importLimit: setting(
    'import-limit',
    'SANDBOX_IMPORT_LIMIT',
    'largest state import (PUT /__sandbox/state) in bytes, at most 536870888; the default fits a 2 GB container with room to spare (default 67108864)',
    int(1, MAX_STRING_LENGTH).default(64 * 1_048_576),
  ),
  secretGrace: setting(
    'secret-grace',
    'SANDBOX_SECRET_GRACE',
    'seconds a rotated-out secret key keeps working, at most 315360000 (default 0)',
    int(0, MAX_LIFETIME_SECONDS).default(0),
  ),
  invitationTtl: setting(
    'invitation-ttl',
    'SANDBOX_INVITATION_TTL',
    'member invitation lifetime in seconds, at most 315360000 (default 172800, 48 h)',
    int(1, MAX_LIFETIME_SECONDS).default(172_800),
  ),
  virtualAccountTtl: setting(
    'virtual-account-ttl',
    'SANDBOX_VIRTUAL_ACCOUNT_TTL',
    'lifetime of a temporal virtual account in seconds, at most 315360000 (default 1800)',
    int(1, MAX_LIFETIME_SECONDS).default(1800),
  ),
  /**
   * How long after a mispaid incoming payment (`mispaid: "refund"`) its refund is made, ms on the sandbox clock
   * (default 600000, 10 min; at most 2592000000, 30 days).
   */
  refundDelay: setting(
    'refund-delay',
    'SANDBOX_REFUND_DELAY',
    'milliseconds on the sandbox clock before a mispaid incoming payment (mispaid: "refund") is refunded, at most 2592000000 (default 600000, 10 min)',
    int(0, 2_592_000_000).default(600_000),
  ),
  uploadLimit: setting(
    'upload-limit',
    'SANDBOX_UPLOAD_LIMIT',
    'largest uploaded file in bytes (default 5242880)',
    int(1).default(5 * 1_048_576),
  ),
  bulkConcurrency: setting(
    'bulk-concurrency',
    'SANDBOX_BULK_CONCURRENCY',
    'bulk transfer items processed at once (default 8)',
    int(1, 1000).default(8),
  ),
  bulkItemDelay: setting(
    'bulk-item-delay',
    'SANDBOX_BULK_ITEM_DELAY',
    'milliseconds each bulk item stays processing, at most 600000 (default 0)',
    int(0, 600_000).default(0),
  ),
  webhookTimeout: setting(
    'webhook-timeout',
    'SANDBOX_WEBHOOK_TIMEOUT',
    'milliseconds a webhook receiver has to answer, at most 600000 (default 5000)',
    int(1, 600_000).default(5000),
  ),
  webhookRetryBase: setting(
    'webhook-retry-base',
    'SANDBOX_WEBHOOK_RETRY_BASE',
    'delay before the first webhook retry, ms, at most 3600000 (default 1000)',
    int(0, 3_600_000).default(1000),
  ),
  webhookRetryFactor: setting(
    'webhook-retry-factor',
    'SANDBOX_WEBHOOK_RETRY_FACTOR',
    'each webhook retry waits this many times longer, 1 to 100 (default 2)',
    z.coerce.number().min(1).max(100).default(2),
  ),
  webhookAttempts: setting(
    'webhook-attempts',
    'SANDBOX_WEBHOOK_ATTEMPTS',
    'webhook attempts before a delivery is failed, first one included, 1 to 100 (default 6)',
    int(1, 100).default(6),
  ),
  /**
   * How many of a client's deliveries may be on their first attempt at once (default 4). First attempts start in
   * the order the deliveries were made; retries keep their own backoff and never wait for a slot, so one hanging
   * receiver call holds no other delivery. 1 sends first attempts strictly one after another.
   */
  webhookConcurrency: setting(
    'webhook-concurrency',
    'SANDBOX_WEBHOOK_CONCURRENCY',
    "a client's webhook deliveries on their first attempt at once, started in the order they were made; retries never wait for one, 1 to 100 (default 4)",
    int(1, 100).default(4),
  ),
  deliveryLogSize: setting(
    'delivery-log-size',
    'SANDBOX_DELIVERY_LOG_SIZE',
    'webhook deliveries kept per client; past it the oldest finished ones are dropped, pending ones never (default 1000)',
    int(1, 1_000_000).default(1000),
  ),
  logFormat: setting(
    'log-format',
    'SANDBOX_LOG_FORMAT',
    'log lines on standard output: pretty or json, where every line is one JSON object, the banner included (default pretty)',
    z.enum(['pretty', 'json']).default('pretty'),
  ),
  quiet: setting(
    'quiet',
    'SANDBOX_QUIET',
    'a one-line banner, and only warnings and errors in the log: no request lines, no batch starts, nothing a scenario caused on purpose (default off)',
    bool.default(false),
    true,
  ),
  journalSize: setting(
    'journal-size',
    'SANDBOX_JOURNAL_SIZE',
    'requests kept for GET /__sandbox/requests (default 1000)',
    int(1, 1_000_000).default(1000),
  ),
  journalBodyLimit: setting(
    'journal-body-limit',
    'SANDBOX_JOURNAL_BODY_LIMIT',
    'largest request or response body the request journal keeps, in bytes; a larger one is recorded by its size (default 65536)',
    int(0, MAX_STRING_LENGTH).default(65_536),
  ),
  journalBytes: setting(
    'journal-bytes',
    'SANDBOX_JOURNAL_BYTES',
    'bytes the request journal may hold (bodies, plus 1024 per entry); past it the oldest entries go (default 67108864, 64 MiB)',
    int(1024).default(64 * 1_048_576),
  ),
  sandboxesJournalBytes: setting(
    'sandboxes-journal-bytes',
    'SANDBOX_SANDBOXES_JOURNAL_BYTES',
    "bytes the request journals of all isolated sandboxes may hold together (bodies, plus 1024 per entry; the root sandbox's is not counted), on top of each one's --journal-bytes; past it the oldest entries of the largest journals go first (default 268435456, 256 MiB)",
    int(1024).default(256 * 1_048_576),
  ),
  maxSandboxes: setting(
    'max-sandboxes',
    'SANDBOX_MAX_SANDBOXES',
    'isolated sandboxes (POST /__sandbox/sandboxes) that may exist at once; one more is 429, 0 allows none (default 100)',
    int(0, 100_000).default(100),
  ),
  sandboxIdleTtl: setting(
    'sandbox-idle-ttl',
    'SANDBOX_SANDBOX_IDLE_TTL',
    'seconds an isolated sandbox may go unused (no request, drain, dashboard page or webhook delivery of its own in flight) before it is dropped, on real time; 0 keeps them until deleted (default 1800)',
    int(0, MAX_LIFETIME_SECONDS).default(1800),
  ),
  compactAfter: setting(
    'compact-after',
    'SANDBOX_COMPACT_AFTER',
    'journal size in bytes that triggers a background snapshot (default 16777216)',
    int(1024).default(16 * 1_048_576),
  ),
} as const;

type Settings = typeof settings;
export type SettingName = keyof Settings;

export const configSchema = z
  .object(
    Object.fromEntries(Object.entries(settings).map(([k, s]) => [k, s.schema])) as {
      [K in SettingName]: Settings[K]['schema'];
    },
  )
  .superRefine((config, ctx) => {
    if (config.record !== undefined && config.upstream === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['record'],
        message: 'needs --upstream: it records what the real bank answers',
      });
    // Each retry waits on one timer: past what a timer holds it would fire at once, so the last (longest) wait
    // of the three settings together must fit. Named after the attempts, the usual way to get there.
    const { webhookAttempts: attempts, webhookRetryBase: base, webhookRetryFactor: factor } = config;
    const longest = retryDelayMs(attempts - 1, base, factor);
    if (longest > MAX_TIMER_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookAttempts'],
        message: `with a retry base of ${base} ms and a factor of ${factor}, retry ${attempts - 1} would wait ${longest.toExponential(2)} ms, more than a timer holds (${MAX_TIMER_MS} ms, about 24.8 days); use fewer attempts, a smaller factor or a smaller base`,
      });
    }
  });
/** The resolved settings. */
export type Config = z.infer<typeof configSchema>;
export type { ConfigInput } from './options.js';

/** A setting with a bad value, or an option no setting has: 400, as the control API answers bad input. */
export class ConfigError extends SandboxError {
  static {
    keepName(ConfigError, 'ConfigError');
  }

  constructor(message: string) {
    super(message, 400);
  }
}

/**
 * Where settings came from, for the message of a bad one: code reads the option as code spells it
 * (`invalid option bulkItemDelay: …`), the CLI the flag and its variable (`invalid setting --bulk-item-delay
 * (SANDBOX_BULK_ITEM_DELAY): …`).
 */
export type ConfigSource = 'code' | 'cli';

/** The option name nearest to a misspelt one, when one is near enough to be meant: `bulkItemDelayMs` → `bulkItemDelay`. */
export function nearestOption(name: string): string | undefined {
  // A flag's spelling (`bulk-item-delay`) names the option as well as its camelCase does.
  const camel = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return nearestName(camel, Object.keys(settings));
}

/** Validates settings from code unless `from` says the CLI; an unknown option is refused (no type catches a typo). */
export function resolveConfig(input: ConfigInput = {}, from: ConfigSource = 'code'): Config {
  const unknown = Object.keys(input).find((key) => !Object.hasOwn(settings, key));
  if (unknown !== undefined) {
    const near = nearestOption(unknown);
    throw new ConfigError(
      near
        ? `unknown option ${unknown}: did you mean ${near}?`
        : `unknown option ${unknown}: options are the flags of --help in camelCase (bulkItemDelay for --bulk-item-delay)`,
    );
  }
  // Without zod's JIT: parsed once or twice a process, its compiled fast path would cost a start more than it saves.
  const parsed = configSchema.safeParse(input, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  const s = (settings as Record<string, Setting<z.ZodType>>)[name];
  const label = from === 'cli' && s ? `setting --${s.flag} (${s.env})` : `option ${name}`;
  throw new ConfigError(`invalid ${label}: ${issue?.message ?? 'invalid value'}`);
}

export type CliResult =
  | {
      kind: 'run';
      config: Config;
      /** The settings a flag or a variable gave; the others took their defaults. */
      given: SettingName[];
    }
  | { kind: 'help' }
  | { kind: 'version' };

/** Reads flags, then the environment for what the flags leave out; flags win. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliResult {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    help: { type: 'boolean' },
    version: { type: 'boolean' },
  };
  for (const s of Object.values(settings)) {
    options[s.flag] = { type: s.boolean ? 'boolean' : 'string' };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const input: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(settings)) {
    // An empty variable counts as unset, as shells and compose files often leave them.
    const value = values[s.flag] ?? (env[s.env] === '' ? undefined : env[s.env]);
    if (value !== undefined) input[key] = value;
  }
  return {
    kind: 'run',
    config: resolveConfig(input as ConfigInput, 'cli'),
    given: Object.keys(input) as SettingName[],
  };
}

/** The `--help` text: every setting with its flag, variable and default. */
export function helpText(): string {
  const rows = Object.values(settings).map((s) => {
    return [`  --${s.flag}${s.boolean ? '' : ' VALUE'}`, s.env, s.doc] as const;
  });
  const w0 = Math.max(...rows.map((r) => r[0].length)) + 2;
  const w1 = Math.max(...rows.map((r) => r[1].length)) + 2;
  return [
    'banking-sandbox: a local, stateful sandbox of a Nigerian business banking API',
    '',
    'Usage: banking-sandbox [options]',
    '',
    'Every option can also be set with its environment variable; a flag wins over the variable.',
    '',
    ...rows.map(([flag, env, doc]) => flag.padEnd(w0) + env.padEnd(w1) + doc),
    `  --help${' '.repeat(w0 - 8)}${''.padEnd(w1)}print this text`,
    `  --version${' '.repeat(w0 - 11)}${''.padEnd(w1)}print the version`,
    '',
  ].join('\n');
}
