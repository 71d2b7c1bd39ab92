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
import { criteriaOf, type Filter, lazyBody, meetsAll } from './match.js';

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
  return criteria.length === 0 ? entries : entries.filter((e) => meetsAll(e, criteria));
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

/**
 * Whether the journal holds as many requests matching the filter as expected (at least 1 unless told). When it
 * does not: 409, with the count, what was expected and the nearest entries: the `NEAREST` that meet the most
 * criteria (each given filter is one criterion, each field of a body subset another), newest first among equals,
 * each with the criteria it misses.
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
  const entries = journal.entries();
  const scored = entries.map((entry) => {
    const body = lazyBody(entry);
    const unmatched = criteria.filter((c) => !c.test(entry, body)).map((c) => c.name);
    return { entry, unmatched };
  });
  const count = scored.filter((s) => s.unmatched.length === 0).length;
  if (holds(count, expected)) return { count, expected };
  // Stable: among entries that miss as many criteria, the newest stay first.
  const nearest = scored
    .filter((s) => s.unmatched.length < criteria.length || criteria.length === 0)
    .sort((a, b) => a.unmatched.length - b.unmatched.length)
    .slice(0, NEAREST)
    .map(({ entry, unmatched }) => ({ unmatched, entry: entryView(entry) }));
  const described = filterText(filter);
  throw new ApiError(
    409,
    `Expected ${expectationText(expected)}${described ? ` matching ${described}` : ''}, found ${count}`,
    undefined,
    undefined,
    { count, expected, nearest },
  );
}
