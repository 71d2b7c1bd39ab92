import type { DriftReport, RequestEntryView, RequestFilter, RequestSearchInput } from '../client/handle.js';
import { type Command, type Options, UsageError, type Values, wholeNumber } from './command.js';

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
  if (Array.isArray(values.body) && values.body.length > 0) filter.body = bodySubset(values.body.map(String));
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

/** The commands that read the request journal (search, verify a count) and the upstream's drift report. */
export const journalCommands = {
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
      if (values.limit !== undefined) filter.limit = wholeNumber(values.limit, '--limit', 1);
      const entries = await sandbox.requests(filter);
      const lines = entries.map(entryLine);
      return {
        line: lines.length > 0 ? lines.join('\n') : 'No request matches',
        json: entries,
      };
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
      const n = wholeNumber(values[which], `--${which}`);
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
} satisfies Record<string, Command>;
