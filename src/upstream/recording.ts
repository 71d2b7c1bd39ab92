import { basename } from 'node:path';
import {
  BODYLESS_STATUSES,
  type CustomAnswer,
  MAX_CUSTOM_BODY_BYTES,
  type Scenario,
  type ScenarioRule,
  scenarioRule,
} from '../contract/scenarios.js';
import { maskedText, recordedJson, recordedPathPattern } from '../domain/redact.js';
import type { Log } from '../log.js';
import { recordingFailed, recordingSkipped } from '../log-events.js';
import { isMissing, replaceFile, type StoreFileSystem, writeFully } from '../store/file-system.js';

// `--record FILE` (with `--upstream`): what the real bank answered, written as a scenario of custom answers that
// `--scenario FILE` replays offline. One rule per answer, in the order they came: `{on: "http", match: {method,
// path}, effect: {http: {status, body}}}`; answers in a row to one method and path that are the same are one rule,
// and each answer but the last of its method and path applies as often as it came (`times`), so a replay gives the
// answers in the order the bank gave them and then the last one for good. Every secret-looking value is masked, and
// every echo of the request's own credentials (`recordedJson`); the file holds at most `MAX_RECORDED_RULES` rules.
//
// When the file is written: opening a recording only proves that its folder takes a file (a temporary one, made
// and removed beside it), so a start refused for any reason leaves an earlier recording byte for byte as it was.
// The file itself is first written once the sandbox has started (`begin()`: a scenario of no rules), then whole
// and atomically (a temporary file renamed over it) at most once per `writeEveryMs` while answers come, and at the
// close (`flush()`). A rule may hold 64 KB and a recording 200 of them: writing it whole after every answer, even
// one that only counted a repeat, cost a disk write of up to 13 MB per request.

/** The most rules a recording holds: as many as a scenario may have. */
export const MAX_RECORDED_RULES = 200;

/** How deep a recorded body may nest: as deep as a custom answer's may. */
const MAX_NESTING = 64;

/** Least time between two writes of the file while answers come, ms: a crash loses at most this much. */
export const RECORDING_WRITE_EVERY_MS = 250;

/** The methods a rule can match. */
const RECORDABLE = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** One answer of the upstream, as the proxy hands it over. */
export interface UpstreamExchange {
  method: string;
  /** The request's path as a rule matches it (`/api/v1/...`, no query). */
  path: string;
  status: number;
  /** The body's text when it was JSON, or empty; undefined for any other kind of body. */
  text: string | undefined;
  /** The values of the request's own credentials (`credentialValues`): the recording never repeats them. */
  credentials: readonly string[];
}

/** A run of equal answers to one method and path. */
interface Recorded {
  key: string;
  method: string;
  pattern: string;
  answer: CustomAnswer;
  /** The answer as JSON, to tell an equal one. */
  shown: string;
  count: number;
}

/** A scenario's name from the file's: lowercase letters, digits and dashes. */
function nameOf(file: string): string {
  const name = basename(file, '.json')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64);
  return name === '' ? 'recording' : name;
}

/** Whether a parsed value nests deeper than `limit` (walked with a list, not recursion). */
function nestsDeeper(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() ?? [null, 0];
    if (next === null || typeof next !== 'object') continue;
    if (depth >= limit) return true;
    for (const item of Object.values(next)) pending.push([item, depth + 1]);
  }
  return false;
}

/** Why an answer cannot be recorded, or the custom answer that replays it. */
function answerOf(exchange: UpstreamExchange): CustomAnswer | string {
  const { status, text } = exchange;
  if (text === undefined) return 'its body is not JSON';
  if (text === '') return BODYLESS_STATUSES.has(status) ? { status } : { status, bodyText: '' };
  if (Buffer.byteLength(text) > MAX_CUSTOM_BODY_BYTES)
    return `its body is over ${MAX_CUSTOM_BODY_BYTES} bytes, the most a custom answer holds`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'its body is not JSON';
  }
  if (nestsDeeper(parsed, MAX_NESTING)) return `its body nests deeper than ${MAX_NESTING} levels`;
  const body = recordedJson(parsed, exchange.credentials);
  const json = JSON.stringify(body);
  // A body whose text holds `{{` would be read as templates on replay: it goes as a text, byte for byte.
  return json.includes('{{') ? { status, bodyText: json } : { status, body };
}

/** What a recording is made of: where it writes, and where its lines go. */
export interface RecordingOptions {
  file: string;
  /** The upstream as the report shows it, for the scenario's description. */
  upstream: string;
  fs: StoreFileSystem;
  log: Log;
  /** Least time between two writes while answers come, ms (default `RECORDING_WRITE_EVERY_MS`). */
  writeEveryMs?: number;
}

/** One recording: the answers so far, and the writes of its file. */
export class Recording {
  private readonly recorded: Recorded[] = [];
  private full = false;
  /** Something the file does not hold yet: an answer, or (from `begin()`) the file itself. */
  private dirty = false;
  private writing: Promise<void> | null = null;
  /** The next write, due once `writeEveryMs` has passed; unref'd, so it never keeps the process alive. */
  private timer: NodeJS.Timeout | null = null;
  /** A write failed and none has worked since: one line says so, not one per answer. */
  private failing = false;

  private constructor(
    private readonly target: string,
    private readonly options: RecordingOptions,
  ) {}

  /**
   * Opens a recording without touching its file: a temporary file is made beside it and removed, so that a folder
   * that cannot take the file is known before any request is forwarded, while a start refused later (a bad
   * scenario, a port in use, a state file in use) leaves the file as it was. Rejects with the file system's error.
   */
  static async open(options: RecordingOptions): Promise<Recording> {
    const { fs } = options;
    // A link stays a link: the file it leads to is the one replaced, as the state file's is.
    const target = await fs.resolveLinks(options.file);
    // A folder at the path would refuse the rename of every write: said now, as for a folder that cannot be written.
    const found = await fs.stat(target).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (found?.isDirectory())
      throw Object.assign(new Error(`EISDIR: ${target} is a folder`), { code: 'EISDIR' });
    // The temporary name every write uses: a probe leaves nothing that a write would not leave.
    const probe = `${target}.tmp`;
    try {
      await (await fs.open(probe, 'w')).close();
    } finally {
      await fs.remove(probe).catch(() => undefined);
    }
    return new Recording(target, options);
  }

  /**
   * The sandbox has started: the file is written now (a scenario of no rules until answers come), so that it tells
   * this run's recording from an earlier one. A write that fails is logged, as any later one.
   */
  begin(): Promise<void> {
    this.dirty = true;
    return this.flush();
  }

  /** The file, as its scenario: the rules in the order the answers came. */
  scenario(): Scenario {
    const rules: ScenarioRule[] = this.recorded.map((run, i) => {
      const later = this.recorded.slice(i + 1).some((other) => other.key === run.key);
      return {
        on: 'http',
        match: { method: run.method as ScenarioRule['match']['method'], path: run.pattern },
        effect: { http: run.answer },
        ...(later ? { times: run.count } : {}),
      };
    });
    const count = this.recorded.reduce((sum, run) => sum + run.count, 0);
    return {
      name: nameOf(this.options.file),
      description: `What ${this.options.upstream} answered: ${count} answers, recorded by banking-sandbox --record, secret-looking values masked. Replay it with --scenario FILE.`,
      extends: 'default',
      rules,
    };
  }

  /** Takes one answer of the upstream; the file is written again soon after. One left out is logged, and why. */
  add(exchange: UpstreamExchange): void {
    const refused = this.take(exchange);
    if (refused === undefined) {
      this.dirty = true;
      this.schedule();
    } else if (refused !== '') {
      const path = maskedText(exchange.path);
      this.options.log(recordingSkipped(exchange.method, path, exchange.status, refused));
    }
  }

  /** Records an answer: undefined once it is in; else why not ('' when that was said already). */
  private take(exchange: UpstreamExchange): string | undefined {
    if (!RECORDABLE.has(exchange.method)) return `a rule cannot match ${exchange.method}`;
    const answer = answerOf(exchange);
    if (typeof answer === 'string') return answer;
    const pattern = recordedPathPattern(exchange.path);
    const key = `${exchange.method} ${pattern}`;
    const shown = JSON.stringify(answer);
    const last = this.recorded.findLast((run) => run.key === key);
    // Only the order of one method and path's answers matters on replay: an answer equal to the last one of its
    // method and path is that run once more, whatever came between.
    if (last !== undefined && last.shown === shown) {
      last.count += 1;
      return undefined;
    }
    if (this.recorded.length >= MAX_RECORDED_RULES) {
      const said = this.full;
      this.full = true;
      return said ? '' : `the recording holds ${MAX_RECORDED_RULES} rules, as many as a scenario may`;
    }
    const rule = { on: 'http', match: { method: exchange.method, path: pattern }, effect: { http: answer } };
    if (!scenarioRule.safeParse(rule).success) return 'no custom answer can replay it';
    this.recorded.push({ key, method: exchange.method, pattern, answer, shown, count: 1 });
    return undefined;
  }

  /**
   * Resolves once every answer taken so far is in the file, or its last write failed again: the write due later is
   * made now, and one that failed last is tried once more (the sandbox is closing, and no answer will come to try
   * it). Before `begin()` with no answer taken, nothing is written: a start that was refused leaves the file alone.
   */
  async flush(): Promise<void> {
    let retried = false;
    for (;;) {
      this.stopTimer();
      if (this.writing) {
        await this.writing;
        continue;
      }
      if (this.failing && !retried) {
        retried = true;
        this.dirty = true;
      }
      if (!this.dirty) return;
      this.startWrite();
    }
  }

  /** A write in `writeEveryMs`, unless one is due or running already (it schedules the next itself). */
  private schedule(): void {
    if (this.timer !== null || this.writing !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.writing === null) this.startWrite();
    }, this.options.writeEveryMs ?? RECORDING_WRITE_EVERY_MS);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** Writes what was taken so far; what comes while it runs waits for the next write, `writeEveryMs` later. */
  private startWrite(): void {
    this.dirty = false;
    const done: Promise<void> = this.write().then(
      () => {
        this.failing = false;
      },
      (error: unknown) => {
        if (!this.failing) this.options.log(recordingFailed(this.target, error));
        this.failing = true;
      },
    );
    // Cleared after it is set (a `finally` callback never runs at once), so `writing` never names a write that is over.
    this.writing = done.finally(() => {
      this.writing = null;
      if (this.dirty) this.schedule();
    });
  }

  private async write(): Promise<void> {
    const bytes = Buffer.from(`${JSON.stringify(this.scenario(), null, 2)}\n`);
    return replaceFile(this.options.fs, this.target, (file) => writeFully(file, bytes));
  }
}
