import { canonicalId } from '../../domain/ids.js';
import { redactJson } from '../../domain/redact.js';
import type { RequestEntry } from '../../http/request-log.js';

// Which journal entries a filter picks, criterion by criterion: a verification that does not hold ranks the
// entries by how many criteria each meets.

/** A filter as the routes give it, validated. */
export interface Filter {
  method?: string;
  path?: string;
  /** `400` or `4xx`, lower case. */
  status?: string;
  clientId?: string;
  businessId?: string;
  /** The `x-request-id` the sandbox answered with: an exact match. */
  requestId?: string;
  /** `body.<dotted.path>=value` query parameters: each path must hold the value. */
  bodyPaths?: [path: string, value: string][];
  /** A JSON subset the body must contain (`POST …/search` and `…/verify`); undefined for none. */
  body?: unknown;
}

/** One condition of a filter, named as the verification's `unmatched` list names it. */
export interface Criterion {
  name: string;
  test: (entry: RequestEntry, body: () => unknown) => boolean;
  /** What the condition asks for, in words: `POST`, `2xx`, `1000`. */
  wanted: string;
  /** What an entry has there instead, in words: `GET`, `400`, `500`, `absent`. */
  was: (entry: RequestEntry, body: () => unknown) => string;
  /**
   * What the test reads of an entry, cheapest first: `COLUMN` (kept beside the entry's bytes), `HEAD` (its id or
   * path, decoded from them) or `BODY` (its body, parsed).
   */
  cost: number;
}

const COLUMN = 0;
const HEAD = 1;
const BODY = 2;

/** How long a value may be in a message before it is cut: a near miss names what differs, not whole bodies. */
const SHOWN = 60;

/** A value as a message shows it: JSON, cut to `SHOWN` characters. */
export function shown(value: unknown): string {
  const json = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return json.length > SHOWN ? `${json.slice(0, SHOWN - 1)}…` : json;
}

/** What a body holds at a dotted path, as `holdsAt` looks there: a name over a list gathers each element's. */
function valueAt(value: unknown, segments: readonly string[]): unknown {
  const [segment, ...rest] = segments;
  if (segment === undefined) return value;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(segment)) return valueAt(value[Number(segment)], rest);
    const found = value.map((v) => valueAt(v, segments)).filter((v) => v !== undefined);
    return found.length > 0 ? found : undefined;
  }
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
  return valueAt((value as Record<string, unknown>)[segment], rest);
}

/** What a body-criterion saw: the value, `absent`, or that there was no JSON body to look in. */
function bodyWas(body: unknown, read: (body: unknown) => unknown): string {
  return body === NO_BODY ? 'no JSON body' : shown(read(body));
}

/** An id as the journal keeps it (null: the credentials named none). */
const idOrNone = (id: string | null) => id ?? 'none';

/** `undefined` for no body, a body that is not JSON or one not kept. */
const NO_BODY = undefined;

/** The request body of an entry as JSON, redacted (a filter matches what the journal shows, never a secret). */
export function requestJson(entry: RequestEntry): unknown {
  const kept = entry.requestBody;
  if (kept === null) return NO_BODY;
  try {
    return redactJson(JSON.parse(typeof kept === 'string' ? kept : kept.toString('utf8')));
  } catch {
    return NO_BODY;
  }
}

/** Whether a JSON value equals a query parameter's text: `1000` matches the number 1000 and the text "1000". */
function equalsText(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value === text;
  if (typeof value === 'number') return text.trim() !== '' && Number(text) === value;
  if (typeof value === 'boolean') return String(value) === text;
  if (value === null) return text === 'null';
  if (Array.isArray(value)) return value.some((v) => equalsText(v, text));
  return false;
}

/**
 * Whether the value at a dotted path equals `text`. A number segment indexes a list; another segment over a list
 * looks into each of its elements (`transfers.amount` matches any transfer's amount).
 */
export function holdsAt(value: unknown, segments: readonly string[], text: string): boolean {
  const [segment, ...rest] = segments;
  if (segment === undefined) return equalsText(value, text);
  if (Array.isArray(value)) {
    if (/^\d+$/.test(segment)) return holdsAt(value[Number(segment)], rest, text);
    return value.some((v) => holdsAt(v, segments, text));
  }
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return false;
  return holdsAt((value as Record<string, unknown>)[segment], rest, text);
}

/**
 * Whether `actual` contains `expected`: an object holds each of the expected object's fields with a value that
 * contains the expected one (extra fields ignored); a list holds, for each expected element, one that contains it
 * (order and extra elements ignored, as WireMock's `equalToJson` with `ignoreArrayOrder` and
 * `ignoreExtraElements`); anything else is equal.
 */
export function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => contains(a, e)));
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(
      ([key, value]) =>
        Object.hasOwn(actual, key) && contains((actual as Record<string, unknown>)[key], value),
    );
  }
  return actual === expected;
}

/** Whether a status is the one asked for: `400`, or a class `4xx`. */
export function statusMatches(status: number, wanted: string): boolean {
  if (wanted.endsWith('xx')) return Math.floor(status / 100) === Number(wanted[0]);
  return status === Number(wanted);
}

/** The criteria of a filter: each given filter is one, and so is each field of a body subset. */
export function criteriaOf(filter: Filter): Criterion[] {
  const list: Criterion[] = [];
  const { method, path, status, clientId, businessId, requestId } = filter;
  if (method !== undefined)
    list.push({
      name: 'method',
      test: (e) => e.method === method,
      wanted: method,
      was: (e) => e.method,
      cost: COLUMN,
    });
  if (path !== undefined)
    list.push({
      name: 'path',
      test: (e) => e.path.includes(path),
      wanted: `…${path}…`,
      was: (e) => e.path,
      cost: HEAD,
    });
  if (status !== undefined)
    list.push({
      name: 'status',
      test: (e) => statusMatches(e.status, status),
      wanted: status,
      was: (e) => String(e.status),
      cost: COLUMN,
    });
  if (clientId !== undefined) {
    const id = canonicalId(clientId);
    list.push({
      name: 'clientId',
      test: (e) => e.clientId === id,
      wanted: id,
      was: (e) => idOrNone(e.clientId),
      cost: COLUMN,
    });
  }
  if (businessId !== undefined) {
    const id = canonicalId(businessId);
    list.push({
      name: 'businessId',
      test: (e) => e.businessId === id,
      wanted: id,
      was: (e) => idOrNone(e.businessId),
      cost: COLUMN,
    });
  }
  if (requestId !== undefined)
    list.push({
      name: 'requestId',
      test: (e) => e.requestId === requestId,
      wanted: requestId,
      was: (e) => e.requestId,
      cost: HEAD,
    });
  for (const [dotted, value] of filter.bodyPaths ?? []) {
    const segments = dotted.split('.');
    list.push({
      name: `body.${dotted}`,
      test: (_, body) => holdsAt(body(), segments, value),
      wanted: shown(value),
      was: (_, body) => bodyWas(body(), (b) => valueAt(b, segments)),
      cost: BODY,
    });
  }
  const subset = filter.body;
  if (subset !== undefined) {
    if (
      subset !== null &&
      typeof subset === 'object' &&
      !Array.isArray(subset) &&
      Object.keys(subset).length > 0
    ) {
      for (const [key, value] of Object.entries(subset)) {
        list.push({
          name: `body.${key}`,
          test: (_, body) => {
            const actual = body();
            return (
              actual !== null &&
              typeof actual === 'object' &&
              !Array.isArray(actual) &&
              Object.hasOwn(actual, key) &&
              contains((actual as Record<string, unknown>)[key], value)
            );
          },
          // A subset's field names what it must contain: extra fields beside it are not a difference.
          wanted: shown(value),
          was: (_, body) => bodyWas(body(), (b) => valueAt(b, [key])),
          cost: BODY,
        });
      }
    } else {
      list.push({
        name: 'body',
        test: (_, body) => contains(body(), subset),
        wanted: shown(subset),
        was: (_, body) => bodyWas(body(), (b) => b),
        cost: BODY,
      });
    }
  }
  return list;
}

/** An entry's request body, parsed once however many criteria ask for it. */
export function lazyBody(entry: RequestEntry): () => unknown {
  let parsed: { value: unknown } | undefined;
  return () => {
    parsed ??= { value: requestJson(entry) };
    return parsed.value;
  };
}

/** The body of an entry to criteria that do not look at bodies: never called. */
const UNREAD = (): unknown => NO_BODY;

/**
 * Whether an entry meets every criterion, as a test made once for a scan of the whole journal: the criteria that
 * read columns first, then those that decode the entry's id or path, then those that parse its body, so that most
 * entries are told apart by a column; the body's parser is made only for filters that read bodies.
 */
export function meetsAll(criteria: readonly Criterion[]): (entry: RequestEntry) => boolean {
  const ordered = [...criteria].sort((a, b) => a.cost - b.cost);
  const readsBodies = ordered.some((c) => c.cost === BODY);
  return (entry) => {
    const body = readsBodies ? lazyBody(entry) : UNREAD;
    for (const criterion of ordered) if (!criterion.test(entry, body)) return false;
    return true;
  };
}

/** A criterion an entry does not meet: its name, what it asks for, and what the entry has instead. */
export interface Miss {
  name: string;
  wanted: string;
  was: string;
}

/** The criteria an entry does not meet, in the filter's order. */
export function missed(entry: RequestEntry, criteria: readonly Criterion[]): Miss[] {
  const body = lazyBody(entry);
  return criteria
    .filter((c) => !c.test(entry, body))
    .map((c) => ({ name: c.name, wanted: c.wanted, was: c.was(entry, body) }));
}
