import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { connectSandbox } from '../client/connect.js';
import type {
  DriftReport,
  RequestEntryView,
  RequestFilter,
  RequestSearchInput,
  SandboxHandle,
} from '../client/handle.js';
import { MAX_ACCOUNT_NUMBERS } from '../contract/control/account-numbers.js';
import { SandboxError, VerificationError } from '../errors.js';

/** Where a command writes, and what it reads of its environment: the process's own, or a test's. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** The default URL: the sandbox's own default address. */
export const DEFAULT_URL = 'http://127.0.0.1:4010';

/** Bad usage: exit 2 with the line. */
class UsageError extends Error {}

type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
type Values = Record<string, string | boolean | string[] | undefined>;

interface Command {
  usage: string;
  summary: string;
  /** Lines of `--help` after the usage line. */
  help: string[];
  options: Options;
  /** Whether it takes words besides its options (`clock advance 1000`); the others refuse any. */
  positionals?: true;
  /**
   * Does the work; answers what to print (a line, or data to print as JSON with `--json`) and, for a command a CI
   * step gates on, its exit code (default 0).
   */
  run(
    sandbox: SandboxHandle,
    values: Values,
    positionals: string[],
  ): Promise<{ line: string; json: unknown; exitCode?: number }>;
}

const FILTER_OPTIONS: Options = {
  method: { type: 'string' },
  path: { type: 'string' },
  status: { type: 'string' },
  'client-id': { type: 'string' },
  'business-id': { type: 'string' },
  body: { type: 'string', multiple: true },
};

const FILTER_HELP = [
  '  --method M          e.g. POST',
  '  --path TEXT         a part of the path, e.g. /funds/transfer',
  '  --status S          one status (400) or a class (4xx)',
  '  --client-id ID      the client auth resolved',
  '  --business-id ID    the business auth resolved',
  '  --body PATH=VALUE   a field of the JSON request body, e.g. --body retrievalReference=abc (repeatable);',
  '                      a VALUE that reads as JSON (500000, true, null) is compared as such',
];

/** A whole number of at least `min`, or bad usage naming the option. */
function wholeNumber(
  value: string | undefined,
  name: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}, not "${value ?? ''}"`);
  }
  return n;
}

/** `--body a.b=1` → `{a: {b: 1}}`. */
function bodySubset(pairs: string[]): Record<string, unknown> {
  const subset: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--body takes PATH=VALUE (e.g. retrievalReference=abc), not "${pair}"`);
    const path = pair.slice(0, at).split('.');
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed === null || typeof parsed !== 'object') value = parsed;
    } catch {
      // Text as it is.
    }
    let node = subset;
    for (const [i, key] of path.entries()) {
      if (key === '') throw new UsageError(`--body: "${pair}" has an empty part in its path`);
      if (i === path.length - 1) node[key] = value;
      else {
        const next = node[key];
        if (next !== undefined && (typeof next !== 'object' || next === null))
          throw new UsageError(
            `--body: "${pair}" goes inside ${path.slice(0, i + 1).join('.')}, given a value`,
          );
        node[key] ??= {};
        node = node[key] as Record<string, unknown>;
      }
    }
  }
  return subset;
}

function filterOf(values: Values): RequestFilter {
  const filter: RequestFilter = {};
  if (typeof values.method === 'string') filter.method = values.method.toUpperCase();
  if (typeof values.path === 'string') filter.path = values.path;
  if (typeof values.status === 'string') {
    const s = values.status.toLowerCase();
    if (/^[1-5]xx$/.test(s)) filter.status = s as RequestFilter['status'];
    else if (/^[1-5]\d\d$/.test(s)) filter.status = Number(s);
    else throw new UsageError(`--status must be a status (400) or a class (4xx), not "${values.status}"`);
  }
  if (typeof values['client-id'] === 'string') filter.clientId = values['client-id'];
  if (typeof values['business-id'] === 'string') filter.businessId = values['business-id'];
  if (Array.isArray(values.body) && values.body.length > 0) filter.body = bodySubset(values.body);
  return filter;
}

/** A field of an entry, flat (`status`) or nested (`response.status`), whichever the journal keeps. */
function field(entry: unknown, ...paths: string[][]): string {
  for (const path of paths) {
    let node: unknown = entry;
    for (const key of path)
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (node !== undefined && node !== null) return String(node);
  }
  return '-';
}

/** One line per entry: time, method, path, status, duration, request id. */
function entryLine(e: RequestEntryView): string {
  return [
    field(e, ['time']),
    field(e, ['method'], ['request', 'method']).padEnd(6),
    field(e, ['path'], ['request', 'path']),
    field(e, ['status'], ['response', 'status']),
    `${field(e, ['durationMs'])}ms`,
    field(e, ['requestId']),
  ].join(' ');
}

function clockLine(c: { now: string; frozen: boolean; offsetMs: number }): string {
  return `${c.now} (${c.frozen ? 'frozen' : 'running'}, ${c.offsetMs} ms from real time)`;
}

export const commands: Record<string, Command> = {
  reset: {
    usage: 'reset [--keep-requests]',
    summary: 'put the state back to the fixtures',
    help: [
      'The state, the scenario and the clock back to how the sandbox started, the request journal emptied',
      '(POST /__sandbox/reset).',
      '  --keep-requests     keep the request journal',
    ],
    options: { 'keep-requests': { type: 'boolean' } },
    run: async (sandbox, values) => {
      await sandbox.reset({ keepRequests: values['keep-requests'] === true });
      return { line: 'Sandbox reset to the fixtures', json: { reset: true } };
    },
  },
  drain: {
    usage: 'drain [--timeout MS]',
    summary: 'wait until batches and webhooks are settled',
    help: [
      'Waits until the bulk and webhook queues are idle and every change is on disk (POST /__sandbox/drain).',
      '  --timeout MS        give up after MS milliseconds (default 30000), naming what is still waiting: exit 1',
    ],
    options: { timeout: { type: 'string' } },
    run: async (sandbox, values) => {
      const timeoutMs =
        values.timeout === undefined ? undefined : wholeNumber(values.timeout as string, '--timeout', 1);
      await sandbox.drain(timeoutMs === undefined ? {} : { timeoutMs });
      return { line: 'Queues are idle', json: { idle: true } };
    },
  },
  pay: {
    usage: 'pay --account N --amount KOBO [--narration TEXT] [--payer-name NAME] [--refund-mispaid]',
    summary: 'money arrives on a virtual account',
    help: [
      'Credits a virtual account and sends its webhook (POST /__sandbox/incoming-payments).',
      '  --account N         the virtual account number (10 digits)',
      '  --amount KOBO       the amount in kobo',
      '  --narration TEXT    the narration of the payment',
      '  --payer-name NAME   the name of who pays',
      '  --refund-mispaid    a payment the account should not take is credited and refunded later (mispaid: refund)',
    ],
    options: {
      account: { type: 'string' },
      amount: { type: 'string' },
      narration: { type: 'string' },
      'payer-name': { type: 'string' },
      'refund-mispaid': { type: 'boolean' },
    },
    run: async (sandbox, values) => {
      if (typeof values.account !== 'string') throw new UsageError('--account N is required');
      const amount = wholeNumber(values.amount as string | undefined, '--amount', 1);
      const paid = await sandbox.incomingPayment({
        accountNumber: values.account,
        amount,
        ...(typeof values.narration === 'string' ? { narration: values.narration } : {}),
        ...(typeof values['payer-name'] === 'string' ? { accountName: values['payer-name'] } : {}),
        ...(values['refund-mispaid'] === true ? { mispaid: 'refund' as const } : {}),
      });
      return {
        line: `Payment received: ${paid.transactionReference}, webhook delivery ${paid.deliveryId} (${paid.deliveryStatus})`,
        json: paid,
      };
    },
  },
  reverse: {
    usage: 'reverse --business ID --reference REF [--reason TEXT] [--batch ID]',
    summary: 'reverse a successful transfer',
    help: [
      'Reverses a successful transfer or completed bulk item: its amount and charge come back to the balance',
      '(POST /__sandbox/businesses/{id}/transfers/{ref}/reverse).',
      '  --business ID       the business',
      '  --reference REF     the transfer’s retrievalReference',
      '  --reason TEXT       why (the ledger shows it)',
      '  --batch ID          the batch, where items of several batches share the reference',
    ],
    options: {
      business: { type: 'string' },
      reference: { type: 'string' },
      reason: { type: 'string' },
      batch: { type: 'string' },
    },
    run: async (sandbox, values) => {
      if (typeof values.business !== 'string') throw new UsageError('--business ID is required');
      if (typeof values.reference !== 'string') throw new UsageError('--reference REF is required');
      const reversed = await sandbox.reverseTransfer(values.business, values.reference, {
        ...(typeof values.reason === 'string' ? { reason: values.reason } : {}),
        ...(typeof values.batch === 'string' ? { bulkTransferId: values.batch } : {}),
      });
      return {
        line: `Transfer ${reversed.retrievalReference} reversed: ${reversed.totalAmount} kobo back (${reversed.reason})`,
        json: reversed,
      };
    },
  },
  refund: {
    usage: 'refund --payment REF [--reason TEXT]',
    summary: 'refund an incoming payment',
    help: [
      'Refunds an incoming payment now: what it credited is debited back',
      '(POST /__sandbox/incoming-payments/{ref}/refund).',
      '  --payment REF       the payment’s transactionReference',
      '  --reason TEXT       why (the ledger shows it)',
    ],
    options: { payment: { type: 'string' }, reason: { type: 'string' } },
    run: async (sandbox, values) => {
      if (typeof values.payment !== 'string') throw new UsageError('--payment REF is required');
      const refunded = await sandbox.refundPayment(
        values.payment,
        typeof values.reason === 'string' ? { reason: values.reason } : {},
      );
      return {
        line: `Payment ${refunded.transactionReference} refunded: ${refunded.amount} kobo (${refunded.refundReference})`,
        json: refunded,
      };
    },
  },
  subscription: {
    usage: 'subscription --business ID --package NAME --amount KOBO --interval TEXT',
    summary: 'add a subscription plan to a business',
    help: [
      'Adds a plan that GET /api/v1/clients/business/subscriptions lists (POST /__sandbox/businesses/{id}/subscriptions).',
      '  --business ID       the business',
      '  --package NAME      the package name, e.g. "Pro Plan"',
      '  --amount KOBO       the amount in kobo',
      '  --interval TEXT     e.g. monthly, weekly, daily',
    ],
    options: {
      business: { type: 'string' },
      package: { type: 'string' },
      amount: { type: 'string' },
      interval: { type: 'string' },
    },
    run: async (sandbox, values) => {
      const text = (name: string) => {
        const value = values[name];
        if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
        return value;
      };
      const plan = await sandbox.addSubscription(text('business'), {
        packageName: text('package'),
        amount: wholeNumber(values.amount as string | undefined, '--amount'),
        interval: text('interval'),
      });
      return {
        line: `Subscription ${plan.id} added: ${plan.packageName}, ${plan.amount} kobo ${plan.interval}`,
        json: plan,
      };
    },
  },
  'account-numbers': {
    usage: 'account-numbers --bank-code CODE [--count N]',
    summary: 'valid receiver account numbers of a bank, one a line',
    help: [
      'Prints account numbers whose NUBAN check digit is right for the bank, one a line, for the receivers of an',
      "app's transfers (GET /__sandbox/account-numbers). The first of the bank's sequence: the same every run.",
      "  --bank-code CODE    a bank code of the sandbox's list (3 or 6 digits), e.g. 058",
      `  --count N           how many, 1 to ${MAX_ACCOUNT_NUMBERS} (default 1)`,
    ],
    options: { 'bank-code': { type: 'string' }, count: { type: 'string' } },
    run: async (sandbox, values) => {
      const bankCode = values['bank-code'];
      if (typeof bankCode !== 'string') throw new UsageError('--bank-code CODE is required');
      const count =
        values.count === undefined
          ? 1
          : wholeNumber(values.count as string, '--count', 1, MAX_ACCOUNT_NUMBERS);
      const numbers = await sandbox.accountNumbers(bankCode, count);
      return { line: numbers.join('\n'), json: { bankCode, accountNumbers: numbers } };
    },
  },
  scenario: {
    usage: 'scenario NAME | FILE | --clear',
    summary: 'make a scenario active',
    help: [
      'Makes a ready scenario (by name) or a scenario file the active one (PUT /__sandbox/scenario).',
      '  NAME                a ready scenario: flaky-bank, provider-outage, … (GET /__sandbox/scenarios)',
      '  FILE                a scenario as JSON: a path ending in .json or holding a /',
      '  --clear             back to the start-up scenario (DELETE /__sandbox/scenario)',
    ],
    options: { clear: { type: 'boolean' } },
    positionals: true,
    run: async (sandbox, values, positionals) => {
      const [chosen, ...rest] = positionals;
      if (values.clear) {
        if (chosen !== undefined) throw new UsageError('give a scenario or --clear, not both');
        await sandbox.setScenario(null);
        return { line: 'Start-up scenario active', json: { scenario: null } };
      }
      if (chosen === undefined) throw new UsageError('give a scenario NAME or FILE, or --clear');
      if (rest.length > 0) throw new UsageError(`one scenario at a time, not "${rest.join(' ')}" too`);
      if (chosen.endsWith('.json') || chosen.includes('/')) {
        let text: string;
        try {
          text = await readFile(chosen, 'utf8');
        } catch (error) {
          throw new SandboxError(
            `cannot read ${chosen}: ${(error as NodeJS.ErrnoException).code ?? error}`,
            400,
          );
        }
        let scenario: unknown;
        try {
          scenario = JSON.parse(text);
        } catch {
          throw new SandboxError(`${chosen} is not JSON`, 400);
        }
        await sandbox.setScenario(scenario as Parameters<SandboxHandle['setScenario']>[0]);
        const name = (scenario as { name?: unknown }).name;
        return { line: `Scenario ${String(name)} active (from ${chosen})`, json: { scenario: name } };
      }
      await sandbox.setScenario(chosen);
      return { line: `Scenario ${chosen} active`, json: { scenario: chosen } };
    },
  },
  clock: {
    usage: 'clock advance MS | freeze | unfreeze | show',
    summary: 'move, stop, run or show the virtual clock',
    help: [
      '  advance MS          move the clock MS milliseconds on, running what comes due (POST /__sandbox/clock/advance)',
      '  freeze              stop the clock where it stands',
      '  unfreeze            let it run again from there',
      '  show                where it stands (GET /__sandbox/clock)',
    ],
    options: {},
    positionals: true,
    run: async (sandbox, _values, positionals) => {
      const [action, ms, ...rest] = positionals;
      const extra = action === 'advance' ? rest : ms === undefined ? rest : [ms, ...rest];
      if (extra.length > 0) throw new UsageError(`unexpected "${extra.join(' ')}"`);
      if (action === 'advance') await sandbox.clock.advance(wholeNumber(ms, 'clock advance MS', 1));
      else if (action === 'freeze') await sandbox.clock.freeze(true);
      else if (action === 'unfreeze') await sandbox.clock.freeze(false);
      else if (action !== 'show')
        throw new UsageError(
          `clock takes advance MS, freeze, unfreeze or show${action === undefined ? '' : `, not "${action}"`}`,
        );
      const now = await sandbox.clock.get();
      return { line: `Clock at ${clockLine(now)}`, json: now };
    },
  },
  requests: {
    usage: 'requests [filters] [--limit N] [--json]',
    summary: 'list the request journal, newest first',
    help: [
      'Lists the journal entries that match, newest first (POST /__sandbox/requests/search).',
      ...FILTER_HELP,
      '  --limit N           at most N entries',
    ],
    options: { ...FILTER_OPTIONS, limit: { type: 'string' } },
    run: async (sandbox, values) => {
      const filter: RequestSearchInput = filterOf(values);
      if (values.limit !== undefined) filter.limit = wholeNumber(values.limit as string, '--limit', 1);
      const entries = await sandbox.requests(filter);
      const lines = entries.map(entryLine);
      return {
        line: lines.length > 0 ? lines.join('\n') : 'No request matches',
        json: entries,
      };
    },
  },
  sandboxes: {
    usage:
      'sandboxes [list] | create [--id ID] [--replace] [--seed N] [--scenario NAME] [--clock ISO] | delete ID',
    summary: 'list, create or delete isolated sandboxes',
    help: [
      'Isolated sandboxes: worlds of their own in the running process, each answering the bank API at',
      '/sandboxes/{id}/api/v1 and its control API at /sandboxes/{id}/__sandbox. Every other command drives one',
      'with --url URL/sandboxes/ID.',
      '  list                every isolated sandbox (GET /__sandbox/sandboxes); the default',
      '  create              a new one (POST /__sandbox/sandboxes); prints its id and apiUrl',
      '    --id ID           its id: lowercase letters, digits and dashes (default: one is made)',
      '    --replace         with --id: a sandbox of that id is deleted first (a rerun after a killed run)',
      "    --seed N          the seed of its fixtures (default: the process's)",
      "    --scenario NAME   its start-up scenario (default: the process's)",
      '    --clock ISO       a time its clock starts frozen at (default: real time, running)',
      '  delete ID           delete it, with its queued work (DELETE /__sandbox/sandboxes/{id})',
    ],
    options: {
      id: { type: 'string' },
      seed: { type: 'string' },
      scenario: { type: 'string' },
      clock: { type: 'string' },
      replace: { type: 'boolean' },
    },
    positionals: true,
    run: async (sandbox, values, positionals) => {
      const [action = 'list', ...rest] = positionals;
      const given = (['id', 'replace', 'seed', 'scenario', 'clock'] as const).filter(
        (k) => values[k] !== undefined,
      );
      if (action !== 'create' && given.length > 0)
        throw new UsageError(`--${given[0]} goes with sandboxes create only`);
      if (action === 'list') {
        if (rest.length > 0) throw new UsageError(`unexpected "${rest.join(' ')}"`);
        const all = await sandbox.sandboxes.list();
        const lines = all.map(
          (s) => `${s.id}  created ${s.createdAt}  last used ${s.lastUsedAt}  ${s.requests} request(s)`,
        );
        return { line: lines.length > 0 ? lines.join('\n') : 'No isolated sandbox', json: all };
      }
      if (action === 'create') {
        if (rest.length > 0) throw new UsageError(`unexpected "${rest.join(' ')}"`);
        const made = await sandbox.isolate({
          ...(typeof values.id === 'string' ? { id: values.id } : {}),
          ...(values.replace === true ? { replace: true } : {}),
          ...(values.seed === undefined ? {} : { seed: wholeNumber(values.seed as string, '--seed') }),
          ...(typeof values.scenario === 'string' ? { scenario: values.scenario } : {}),
          ...(typeof values.clock === 'string' ? { clock: values.clock } : {}),
        });
        return {
          line: `Sandbox ${made.id} created: point the app at ${made.apiUrl}`,
          json: { id: made.id, apiUrl: made.apiUrl, url: made.url },
        };
      }
      if (action === 'delete') {
        const [id, ...more] = rest;
        if (id === undefined) throw new UsageError('sandboxes delete takes the id of the sandbox');
        if (more.length > 0) throw new UsageError(`one sandbox at a time, not "${more.join(' ')}" too`);
        await sandbox.sandboxes.delete(id);
        return { line: `Sandbox ${id} deleted`, json: { deleted: id } };
      }
      throw new UsageError(`sandboxes takes list, create or delete ID, not "${action}"`);
    },
  },
  drift: {
    usage: 'drift [--clear]',
    summary: 'with --upstream: where the real bank answered other than the routes say; exit 1 when it did',
    help: [
      'Prints the drift report (GET /__sandbox/drift): per route of /api/v1 the calls forwarded to the upstream, the',
      'statuses seen and each finding once, counted. Exit 0 when there is no finding, 1 when there is one, so a CI',
      'step can gate on it.',
      '  --clear             empty the report once read (DELETE /__sandbox/drift)',
    ],
    options: { clear: { type: 'boolean' } },
    run: async (sandbox, values) => {
      const report = await sandbox.drift();
      if (values.clear) await sandbox.clearDrift();
      const found = report.routes.some((r) => r.findings.length > 0);
      return { line: driftLines(report), json: report, exitCode: found ? 1 : 0 };
    },
  },
  verify: {
    usage: 'verify [filters] --at-least N | --exactly N | --at-most N',
    summary: 'check how many requests match: exit 1 when not as expected',
    help: [
      'Counts the journal entries that match (POST /__sandbox/requests/verify): exit 0 when the count is as',
      'expected, 1 otherwise, with the count and under it the nearest requests, each with the conditions it misses.',
      ...FILTER_HELP,
      '  --at-least N | --exactly N | --at-most N   the count expected (one of them)',
    ],
    options: {
      ...FILTER_OPTIONS,
      'at-least': { type: 'string' },
      exactly: { type: 'string' },
      'at-most': { type: 'string' },
    },
    run: async (sandbox, values) => {
      const given = (['at-least', 'exactly', 'at-most'] as const).filter((k) => values[k] !== undefined);
      const [which] = given;
      if (which === undefined || given.length > 1)
        throw new UsageError('give exactly one of --at-least N, --exactly N, --at-most N');
      const n = wholeNumber(values[which] as string, `--${which}`);
      const filter = filterOf(values);
      const expectation =
        which === 'at-least' ? { atLeast: n } : which === 'exactly' ? { exactly: n } : { atMost: n };
      const result = await sandbox.verify({ ...filter, ...expectation });
      return {
        line: `Verified: ${result.count} request(s) match (${which.replace('-', ' ')} ${n})`,
        json: result,
      };
    },
  },
};

/** The drift report as lines: a summary, then each route with its statuses and findings. */
function driftLines(report: DriftReport): string {
  if (report.upstream === null)
    return 'No upstream: this sandbox answers /api/v1 itself (start it with --upstream URL to measure a real bank)';
  const findings = report.routes.reduce((n, r) => n + r.findings.length, 0);
  const calls = report.routes.reduce((n, r) => n + r.calls, 0);
  const lines = [
    `Upstream ${report.upstream}: ${calls} call(s) on ${report.routes.length} route(s), ${findings} finding(s)`,
  ];
  for (const route of report.routes) {
    const statuses = Object.entries(route.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    lines.push(`${route.method} ${route.path}  ${route.calls} call(s)${statuses ? `  ${statuses}` : ''}`);
    for (const f of route.findings)
      lines.push(
        `  ${f.kind} at ${f.at}: expected ${f.expected}, seen ${f.seen} (×${f.count}, first x-request-id ${f.requestId})`,
      );
  }
  return lines.join('\n');
}

const COMMON_HELP = [
  '  --url URL           the sandbox (default: $SANDBOX_URL, else http://127.0.0.1:4010)',
  '  --token T           its --control-token (default: $SANDBOX_CONTROL_TOKEN)',
  '  --json              print the answer as JSON',
  '  --help              print this text',
];

/** The commands, for the top-level `--help`. */
export function commandsHelp(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length)) + 2;
  return [
    'Usage: banking-sandbox COMMAND [options] --url URL: drives a running sandbox (COMMAND --help for each)',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    '',
    'Each takes --url URL (default: $SANDBOX_URL, else http://127.0.0.1:4010), --token T and --json; exit 0 on',
    'success, 1 with one line when the sandbox refuses or cannot be reached (verify adds the nearest requests',
    'under it), 2 on bad usage.',
    '',
  ].join('\n');
}

function helpOf(command: Command): string {
  return [
    `Usage: banking-sandbox ${command.usage} [--url URL] [--token T] [--json]`,
    '',
    ...command.help,
    ...COMMON_HELP,
    '',
  ].join('\n');
}

/** Whether `argv` starts with a command (`banking-sandbox drain …`) rather than the server's flags. */
export function isCommand(argv: readonly string[]): boolean {
  const [first] = argv;
  return first !== undefined && Object.hasOwn(commands, first);
}

/**
 * One line of a failure: a refusal's message, or why the sandbox could not be reached. A verification that does not
 * hold adds, under its line, the nearest requests and what each misses: what a CI log needs to see what was sent.
 */
function failureLine(error: unknown): string {
  if (error instanceof VerificationError) {
    const [first, ...nearest] = error.message.split('\n');
    return [`${first} (${error.count} matched, expected ${JSON.stringify(error.expected)})`, ...nearest].join(
      '\n',
    );
  }
  return (error as Error).message.split('\n')[0] ?? String(error);
}

/**
 * Runs one command (`argv` = `drain --url …`) against a sandbox and answers the exit code: 0 done, 1 the sandbox
 * refused or could not be reached, 2 bad usage. Writes its result to `io.stdout`, one line of failure to
 * `io.stderr`.
 */
export async function run(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name = '', ...args] = argv;
  const command = commands[name];
  if (!command) {
    io.stderr(`banking-sandbox: unknown command "${name}" (see --help)\n`);
    return 2;
  }
  try {
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({
        args: [...args],
        options: {
          ...command.options,
          url: { type: 'string' },
          token: { type: 'string' },
          json: { type: 'boolean' },
          help: { type: 'boolean' },
        },
        strict: true,
        allowPositionals: true,
      }) as { values: Values; positionals: string[] };
    } catch (error) {
      throw new UsageError((error as Error).message.split('\n')[0]);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(helpOf(command));
      return 0;
    }
    if (!command.positionals && positionals.length > 0)
      throw new UsageError(`unexpected "${positionals.join(' ')}"`);
    const env = (key: string) => (io.env[key] === '' ? undefined : io.env[key]);
    const url = (values.url as string | undefined) ?? env('SANDBOX_URL') ?? DEFAULT_URL;
    const token = (values.token as string | undefined) ?? env('SANDBOX_CONTROL_TOKEN');
    let sandbox: SandboxHandle;
    try {
      sandbox = connectSandbox(url, token === undefined ? {} : { controlToken: token });
    } catch (error) {
      throw new UsageError(`--url: ${(error as Error).message.replace(/^connectSandbox: /, '')}`);
    }
    const result = await command.run(sandbox, values, positionals);
    io.stdout(values.json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.line}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`banking-sandbox ${name}: ${error.message} (see banking-sandbox ${name} --help)\n`);
      return 2;
    }
    if (error instanceof SandboxError) {
      io.stderr(`banking-sandbox ${name}: ${failureLine(error)}\n`);
      return 1;
    }
    throw error;
  }
}
