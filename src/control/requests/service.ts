import type {
  HarView,
  ParsedVerification,
  RequestEntryView,
  RequestEntryWithCurlView,
  RequestSearch,
  RequestsQuery,
  VerificationResultView,
} from '../../contract/control/requests.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import { entryView, entryWithCurl, harEntry } from '../../http/journal-view.js';
import type { RequestEntry, RequestJournal } from '../../http/request-log.js';
import { criteriaOf, type Filter, type Miss, meetsAll, missed } from './match.js';

/** How many entries a verification that does not hold shows as the nearest. */
export const NEAREST = 5;
const BODY_PARAM = 'body.';

/** The filter of the query parameters: the named ones and each `body.<dotted.path>=value`. */
export function filterOfQuery(query: RequestsQuery): Filter {
  const bodyPaths: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith(BODY_PARAM) && key.length > BODY_PARAM.length && typeof value === 'string')
      bodyPaths.push([key.slice(BODY_PARAM.length), value]);
  }
  const { method, path, status, clientId, businessId, requestId } = query;
  return { method, path, status, clientId, businessId, requestId, bodyPaths };
}

/** The entries that match, newest first. */
export function matching(journal: RequestJournal, filter: Filter): RequestEntry[] {
  const criteria = criteriaOf(filter);
  const entries = journal.entries();
  return criteria.length === 0 ? entries : entries.filter(meetsAll(criteria));
}

/** A page of the entries that match, newest first. */
export function findRequests(
  journal: RequestJournal,
  filter: Filter,
  page: { page: number; limit: number },
): { data: RequestEntryView[]; pagination: Pagination } {
  return paginate(matching(journal, filter), page, entryView);
}

/** `POST …/search`'s body as a filter and a page. */
export function searchOf(search: RequestSearch): { filter: Filter; page: { page: number; limit: number } } {
  const { page, limit, ...filter } = search;
  return { filter, page: { page, limit } };
}

/** One entry by its id, with its `curl` command; 404 once it has left the journal (or never was). */
export function getRequest(journal: RequestJournal, id: string): RequestEntryWithCurlView {
  const entry = /^\d{1,15}$/.test(id) ? journal.get(Number(id)) : undefined;
  if (!entry)
    throw new ApiError(404, `Request not found: no entry ${id} in the journal (it holds the last ones only)`);
  return entryWithCurl(entry);
}

/** The journal as HAR 1.2, newest first. */
export function harOf(journal: RequestJournal, filter: Filter, version: string): HarView {
  return {
    log: {
      version: '1.2',
      creator: { name: 'banking-sandbox', version },
      entries: matching(journal, filter).map(harEntry),
    },
  };
}

type Expected = VerificationResultView['expected'];

const requests = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

/** `at least 1 request`, `exactly 2 requests`, `between 1 and 3 requests`. */
function expectationText({ exactly, atLeast, atMost }: Expected): string {
  if (exactly !== undefined) return `exactly ${requests(exactly)}`;
  if (atLeast !== undefined && atMost !== undefined) return `between ${atLeast} and ${requests(atMost)}`;
  if (atMost !== undefined) return `at most ${requests(atMost)}`;
  return `at least ${requests(atLeast ?? 1)}`;
}

/** The filter in words: `POST /api/v1/…/transfer, status 2xx, body {"amount":1000}`. */
export function filterText(filter: Filter): string {
  const head = [filter.method, filter.path].filter((p) => p !== undefined).join(' ');
  const parts = head ? [head] : [];
  if (filter.status !== undefined) parts.push(`status ${filter.status}`);
  if (filter.clientId !== undefined) parts.push(`clientId ${filter.clientId}`);
  if (filter.businessId !== undefined) parts.push(`businessId ${filter.businessId}`);
  if (filter.requestId !== undefined) parts.push(`requestId ${filter.requestId}`);
  for (const [path, value] of filter.bodyPaths ?? []) parts.push(`body.${path}=${value}`);
  if (filter.body !== undefined) {
    const json = JSON.stringify(filter.body);
    parts.push(`body ${json.length > 200 ? `${json.slice(0, 200)}…` : json}`);
  }
  return parts.join(', ');
}

const holds = (count: number, { exactly, atLeast, atMost }: Expected) =>
  (exactly === undefined || count === exactly) &&
  (atLeast === undefined || count >= atLeast) &&
  (atMost === undefined || count <= atMost);

/** An entry of the journal, and the criteria of a filter it misses. */
interface Scored {
  entry: RequestEntry;
  misses: Miss[];
}

/** A path as a near miss shows it: cut where it would drown the line. */
const shownPath = (path: string) => (path.length > 120 ? `${path.slice(0, 119)}…` : path);

/** `status: wanted 2xx, was 400; body.amount: wanted 1000, was 500`, or that the entry matches. */
function missesText(misses: readonly Miss[]): string {
  if (misses.length === 0) return 'matches every condition';
  return misses.map((m) => `${m.name}: wanted ${m.wanted}, was ${m.was}`).join('; ');
}

/**
 * The lines after a failed verification's first: each nearest entry (`#id METHOD /path → status`) and the
 * conditions it misses, as WireMock prints its near misses, so that a test runner that shows only the error's
 * message shows what the app sent instead. Or why there is none to show.
 */
function nearMissLines(near: readonly Scored[], journaled: number): string[] {
  if (journaled === 0)
    return [
      'The journal holds no request: none was answered since the start, the last reset or DELETE /__sandbox/requests.',
    ];
  if (near.length === 0)
    return [
      journaled === 1
        ? 'The one request in the journal meets none of these conditions (GET /__sandbox/requests shows it).'
        : `None of the ${journaled} requests in the journal meets any of these conditions (GET /__sandbox/requests lists them).`,
    ];
  return [
    `Nearest ${near.length === 1 ? 'request' : `${near.length} requests`}, with the conditions each misses (GET /__sandbox/requests/{id} shows one whole):`,
    ...near.map(
      ({ entry, misses }) =>
        `  #${entry.seq} ${entry.method} ${shownPath(entry.path)} → ${entry.status}: ${missesText(misses)}`,
    ),
  ];
}

/**
 * Whether the journal holds as many requests matching the filter as expected (at least 1 unless told). When it
 * does not: 409, with the count, what was expected and the nearest entries: the `NEAREST` that meet the most
 * criteria (each given filter is one criterion, each field of a body subset another), newest first among equals,
 * each with the criteria it misses. The message says all of it, a line per nearest entry, each miss with what it
 * wanted and what the entry had; `data` holds the same as data.
 */
export function verifyRequests(
  journal: RequestJournal,
  verification: ParsedVerification,
): VerificationResultView {
  const { exactly, atLeast, atMost, ...filter } = verification;
  const expected: Expected =
    exactly === undefined && atLeast === undefined && atMost === undefined
      ? { atLeast: 1 }
      : {
          ...(exactly === undefined ? {} : { exactly }),
          ...(atLeast === undefined ? {} : { atLeast }),
          ...(atMost === undefined ? {} : { atMost }),
        };
  const criteria = criteriaOf(filter);
  // Counted first, with nothing made per entry: a verification that holds (a test's usual case) needs no more.
  const count = journal.countWhere(meetsAll(criteria));
  if (holds(count, expected)) return { count, expected };
  const entries = journal.entries();
  const scored: Scored[] = entries.map((entry) => ({ entry, misses: missed(entry, criteria) }));
  // Stable: among entries that miss as many criteria, the newest stay first.
  const near = scored
    .filter((s) => s.misses.length < criteria.length || criteria.length === 0)
    .sort((a, b) => a.misses.length - b.misses.length)
    .slice(0, NEAREST);
  const nearest = near.map(({ entry, misses }) => ({
    unmatched: misses.map((m) => m.name),
    entry: entryView(entry),
  }));
  const described = filterText(filter);
  const first = `Expected ${expectationText(expected)}${described ? ` matching ${described}` : ''}, found ${count}`;
  throw new ApiError(409, [first, ...nearMissLines(near, entries.length)].join('\n'), undefined, undefined, {
    count,
    expected,
    nearest,
  });
}
