import type { z } from 'zod';
import { ApiError, type FieldError } from './errors.js';

/** A zod issue as an error map receives it, before zod words it. */
type RawIssue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  file: 'a file',
  date: 'a date',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  uuid: 'a UUID',
  guid: 'a UUID',
  url: 'a URL',
  datetime: 'an ISO 8601 date and time',
  date: 'an ISO 8601 date',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

const UNITS: Record<string, [one: string, many: string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
};

const shown = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

/** `must be at least 3 characters`, `must be greater than 0`, `must not be empty`. */
function bound(issue: RawIssue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const limit = small ? issue.minimum : issue.maximum;
  const unit = UNITS[issue.origin];
  if (unit) {
    if (small && Number(limit) === 1) return 'must not be empty';
    return `must ${issue.origin === 'string' || issue.origin === 'file' ? 'be' : 'have'} ${small ? 'at least' : 'at most'} ${limit} ${Number(limit) === 1 ? unit[0] : unit[1]}`;
  }
  if (issue.inclusive === false) return `must be ${small ? 'greater' : 'less'} than ${limit}`;
  return `must be ${small ? 'at least' : 'at most'} ${limit}`;
}

/**
 * Every validation message in the sandbox's own words, one style: `is required` for a missing value, else what the
 * value must be. A schema's own message (`must be 11 digits`) comes first; this words the rest, so no library
 * wording (`Invalid input: expected number, received NaN`) ever reaches a client.
 */
export function inOurWords(issue: RawIssue): string {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union'))
    return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big':
      return bound(issue);
    case 'invalid_format':
      if (issue.format === 'regex') return 'is not in the expected format';
      if (issue.format === 'starts_with' && 'prefix' in issue)
        return `must start with ${shown(issue.prefix)}`;
      return `must be ${FORMAT_NAMES[issue.format] ?? `a valid ${issue.format}`}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${shown(issue.values[0])}`
        : `must be one of ${issue.values.map(shown).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is not in any accepted form';
    case 'invalid_key':
      return 'has a key that is not accepted';
    case 'invalid_element':
      return 'has an element that is not accepted';
    default:
      return 'is not accepted';
  }
}

/** A field's path as a JavaScript reader writes it: `transfers[3].amount`, `rules[0].effect`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function fieldErrors(error: z.ZodError, at: readonly PropertyKey[]): FieldError[] {
  return error.issues.map((issue) => ({
    field: fieldPath([...at, ...issue.path]) || '(body)',
    message: issue.message,
  }));
}

/**
 * Parses `value` with `schema` or throws a 400 whose message names the first bad field: `amount is required`,
 * `page is invalid: must be a number`. `at` is where the value sits in the body, for a part checked on its own
 * (a record of a state import). A schema given as a function (a contract's request schema, built on first use)
 * is built here.
 */
export function parseInput<S extends z.ZodType>(
  schema: S | (() => S),
  value: unknown,
  at: readonly PropertyKey[] = [],
): z.infer<S> {
  const result = (typeof schema === 'function' ? schema() : schema).safeParse(value, { error: inOurWords });
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, at);
  const first = errors[0];
  const message = first
    ? `${first.field} ${first.message === 'is required' ? 'is required' : `is invalid: ${first.message}`}`
    : 'Invalid request';
  throw new ApiError(400, message, errors);
}

/** Parses JSON text, or throws the 400 every JSON route gives for a body that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'Malformed JSON body');
  }
}
