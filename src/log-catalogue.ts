/** How much a line matters: `--quiet` keeps `warn` and `error` only. */
export type LogLevel = 'info' | 'warn' | 'error';

/** What the catalogue says of one event. */
interface EventSpec {
  /** The levels its lines have (some events have two: a batch with a failed item is a warning). */
  levels: readonly LogLevel[];
  /** When it is written, in one line. */
  when: string;
  /** Its JSON fields besides `time`, `level` and `event`, each with a note where the name is not enough ('' else). */
  fields: Readonly<Record<string, string>>;
  /** Fields that some of its lines leave out (the note of each says when). */
  optional?: readonly string[];
}

/**
 * Every event the log writes besides the request lines: its name, its levels, its JSON fields and when it is
 * written. `docs/reference/log-events.md` is generated from it (`npm run docs`), and the compiler holds every
 * emitted event to it: `Log` takes only an event named here, at one of its levels, with exactly its fields.
 */
export const LOG_EVENTS = {
  listening: {
    levels: ['info'],
    when: 'once the CLI listens: the banner as one line, with `--log-format json`',
    fields: {
      message: 'says it as the text banner does',
      url: 'the base URL',
      api: 'the base URL of the bank’s API',
      listening: 'the address and port; not with `--quiet`',
      state: '`{inMemory, file}`; not with `--quiet`',
      control: 'the control API’s base URL; not with `--quiet`',
      controlTokenRequired: 'not with `--quiet`',
      docs: 'the reference page’s URL; not with `--quiet`',
      dashboard: 'the dashboard’s URL; not with `--quiet`',
      clients:
        'the fixture logins and keys, as the text banner prints them; never `webhookAuthKey` nor the control token; not with `--quiet`',
    },
    optional: ['listening', 'state', 'control', 'controlTokenRequired', 'docs', 'dashboard', 'clients'],
  },
  'batch.started': {
    levels: ['info'],
    when: 'a batch’s items are queued: processed, reprocessed, or resumed at a start',
    fields: {
      batchId: '',
      clientId: '',
      businessId: '',
      batchName: '',
      bulkReference: '',
      totalItems: '',
      queuedItems: '',
      resumed: 'whether a start took the batch up again',
    },
  },
  'batch.settled': {
    levels: ['info', 'warn'],
    when: 'a batch’s last open item finished; `warn` when an item of this run failed unexpectedly (`failedUnexpectedly`), `info` when every failure was a scenario’s on purpose',
    fields: {
      batchId: '',
      clientId: '',
      businessId: '',
      batchName: '',
      status: '',
      totalItems: '',
      completedItems: '',
      failedItems: 'the batch’s, all runs',
      failedByScenario:
        'items of this run (a process, a reprocess, a resume) that a scenario rule failed on purpose: the magic accounts, `insufficient-funds-midway`, a rule of the test’s',
      failedUnexpectedly:
        'items of this run that failed with no rule behind them (a real shortage of balance); after a restart, also those that failed before it, whose cause was not kept',
      sandboxDurationMs:
        'on the sandbox clock, where an advance counts: since its items were queued, or since it was resumed',
      resumed: '',
    },
  },
  'webhook.attempt_failed': {
    levels: ['info', 'warn'],
    when: 'a webhook attempt was not acknowledged: `warn` when the receiver did not acknowledge it (a status other than 200, no answer, a refused connection), `info` when a scenario rule’s `refuse` failed it on purpose',
    fields: {
      deliveryId: '',
      clientId: '',
      businessId: '',
      url: 'without its userinfo, every query value `***`',
      statusCode: 'null without an answer',
      error: 'scrubbed as `url` is',
      attempt: '',
      maxAttempts: '',
      nextAttemptAt: 'ISO, on the sandbox clock; null after the last attempt',
      gaveUp: '',
      scenario:
        '`{name, rule}` of the scenario rule whose `refuse` failed the attempt; null when the receiver did',
    },
  },
  'webhook.dropped': {
    levels: ['info'],
    when: 'a scenario rule’s `drop` lost a delivery: recorded `dropped`, never sent',
    fields: {
      deliveryId: '',
      clientId: '',
      businessId: '',
      url: 'as `webhook.attempt_failed` shows it',
      scenario: '`{name, rule}` of the rule',
    },
  },
  'scenario.header_refused': {
    levels: ['warn'],
    when: 'a scenario rule’s custom answer header, its templates filled in, held a line break or a character a header cannot carry, or passed 8192 bytes: it was not sent, and the request was answered 502 instead (the rule’s failure, not the sandbox’s)',
    fields: {
      method: '',
      path: 'as the journal has it',
      requestId: '',
      scenario: 'the rule: `{name, rule}`',
      header: 'the header’s name',
      message: '',
    },
  },
  'scenario.answer_too_large': {
    levels: ['warn'],
    when: 'a scenario rule’s custom answer (`effect.http.body`) rendered past 1048576 characters once its templates were filled in (a template put a long value of the request in it): the request was answered 502 instead, the rule’s failure and not the sandbox’s',
    fields: {
      method: '',
      path: 'as the journal has it',
      requestId: '',
      scenario: '`{name, rule}` of the rule',
      limit: 'the characters a rendered answer may have',
      message: 'what the 502 said',
    },
  },
  'sandbox.resumed': {
    levels: ['info'],
    when: 'a start found bulk items or webhook deliveries left open by the last run',
    fields: { bulkItems: '', deliveries: '', message: '' },
  },
  'sandbox.dropped': {
    levels: ['info'],
    when: 'an isolated sandbox was deleted (`DELETE /__sandbox/sandboxes/{id}`) or dropped after `--sandbox-idle-ttl` unused',
    fields: {
      sandbox: 'its id',
      reason: '`deleted` or `expired`',
      idleTtlSeconds: '`--sandbox-idle-ttl`',
      requests: 'the requests it answered',
      message: '',
    },
  },
  'sandbox.state_kept': {
    levels: ['warn'],
    when: 'at start-up, the state file exists and is kept although a `--seed` other than its own, or a `--fixtures`, was given',
    fields: {
      file: 'the state file',
      stateSeed: 'the seed the state keeps',
      seed: 'the seed given; null unless it is a reason for the line',
      fixtures: 'the fixtures folder given; null unless given',
      message: 'what was not applied, what still applies and how to start afresh',
    },
  },
  'control.exposed': {
    levels: ['warn'],
    when: 'at start-up, the sandbox listens on an address other machines reach without `--control-token`',
    fields: { listening: 'the address and port', message: '' },
  },
  'store.compaction_failed': {
    levels: ['warn'],
    when: 'a background snapshot failed (the journal still holds everything)',
    fields: { message: '' },
  },
  'store.write_failing': {
    levels: ['error'],
    when: 'the disk stopped taking writes: reads go on, writes answer 503',
    fields: { code: 'the file system’s error code', since: 'ISO, real time', message: '' },
  },
  'store.writable': {
    levels: ['warn'],
    when: 'the disk takes writes again (a warning, so that `--quiet` shows the pair)',
    fields: { message: '' },
  },
  'store.taken_over': {
    levels: ['error'],
    when: 'the state file’s lock is no longer this process’s (removed, or taken over by another process after this one was paused past the staleness window): writes answer 503 from then on, and the CLI exits 1',
    fields: {
      lockFile: 'the lock file',
      holderPid: 'the process its lock names now; null when removed, or when the file there names none',
      holderHost: 'that process’s host, as its lock names it; null as `holderPid`',
      removed: 'whether the lock path is empty',
      message: '',
    },
  },
  'recording.skipped': {
    levels: ['warn'],
    when: 'with `--record`, an upstream answer that the recording leaves out: not JSON, over 65536 bytes, a method no rule matches, or the recording is full (200 rules; said once)',
    fields: {
      method: '',
      path: 'masked as the drift report masks a text',
      status: 'the upstream’s',
      reason: '',
    },
  },
  'recording.write_failed': {
    levels: ['warn'],
    when: 'with `--record`, the recording file could not be written (said once until a write works again; the next answer tries again)',
    fields: { file: '', code: 'the file system’s error code', message: '' },
  },
  'http.error': {
    levels: ['error'],
    when: 'a request answered 500: the sandbox’s own failure',
    fields: { method: '', path: '', requestId: '', error: 'the stack' },
  },
  'http.client_error': {
    levels: ['warn'],
    when: 'Node’s HTTP parser refused a request (headers too large: 431; not HTTP: 400; too slow: 408), or its target is no URL (a backslash in the path: 400), answered with the envelope; it has no request line nor journal entry',
    fields: {
      status: '',
      code: 'Node’s (`HPE_HEADER_OVERFLOW`…), or `ERR_REQUEST_TARGET`',
      requestId: '',
      message: '',
    },
  },
  'bulk.item_error': {
    levels: ['error'],
    when: 'a bulk item broke in a way nobody expected (not a refused write: those are retried)',
    fields: { itemId: '', error: 'the stack' },
  },
  'webhook.error': {
    levels: ['error'],
    when: 'a webhook delivery broke in a way nobody expected (not a refused write: those are retried)',
    fields: { deliveryId: '', error: 'the stack' },
  },
  'scheduled.error': {
    levels: ['error'],
    when: 'a reversal, refund or late webhook due on the sandbox clock broke in a way nobody expected; it is dropped',
    fields: { jobId: '', error: 'the stack' },
  },
  log: {
    levels: ['warn'],
    when: 'a bare operational line, not otherwise named',
    fields: { message: '' },
  },
} as const satisfies Record<string, EventSpec>;

type Catalogue = typeof LOG_EVENTS;
/** The name of an event of the catalogue. */
export type LogEventName = keyof Catalogue;

type OptionalField<N extends LogEventName> = Catalogue[N] extends { optional: readonly (infer F)[] }
  ? F
  : never;
type FieldName<N extends LogEventName> = keyof Catalogue[N]['fields'];

/** An event's fields: every one of the catalogue's, but those its lines may leave out; no other. */
export type EventFields<N extends LogEventName> = {
  [K in Exclude<FieldName<N>, OptionalField<N>>]: unknown;
} & { [K in Extract<FieldName<N>, OptionalField<N>>]?: unknown };

/** An event as the catalogue describes it: its name, one of its levels, its fields and its pretty line's text. */
export type CataloguedEvent<N extends LogEventName = LogEventName> = {
  [M in N]: {
    level: Catalogue[M]['levels'][number];
    event: M;
    fields: EventFields<M>;
    text: string;
  };
}[N];
