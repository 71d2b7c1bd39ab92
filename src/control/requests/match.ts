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
}

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
  if (method !== undefined) list.push({ name: 'method', test: (e) => e.method === method });
  if (path !== undefined) list.push({ name: 'path', test: (e) => e.path.includes(path) });
  if (status !== undefined) list.push({ name: 'status', test: (e) => statusMatches(e.status, status) });
  if (clientId !== undefined) {
    const id = canonicalId(clientId);
    list.push({ name: 'clientId', test: (e) => e.clientId === id });
  }
  if (businessId !== undefined) {
    const id = canonicalId(businessId);
    list.push({ name: 'businessId', test: (e) => e.businessId === id });
  }
  if (requestId !== undefined) list.push({ name: 'requestId', test: (e) => e.requestId === requestId });
  for (const [dotted, value] of filter.bodyPaths ?? []) {
    const segments = dotted.split('.');
    list.push({ name: `body.${dotted}`, test: (_, body) => holdsAt(body(), segments, value) });
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
        });
      }
    } else {
      list.push({ name: 'body', test: (_, body) => contains(body(), subset) });
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

/** Whether an entry meets every criterion. */
export function meetsAll(entry: RequestEntry, criteria: readonly Criterion[]): boolean {
  const body = lazyBody(entry);
  return criteria.every((c) => c.test(entry, body));
}

/** The criteria an entry does not meet, by name. */
export function unmet(entry: RequestEntry, criteria: readonly Criterion[]): string[] {
  const body = lazyBody(entry);
  return criteria.filter((c) => !c.test(entry, body)).map((c) => c.name);
}
