import { createHash } from 'node:crypto';

// The template language of a scenario's custom answers (`effect.http.body`): `{{request.path}}`,
// `{{request.query.NAME}}`, `{{request.body.PATH}}`, `{{request.header.NAME}}`, `{{now}}` and `{{uuid}}`, nothing
// else. No code runs: a template names one value of the request or the sandbox, and the value is put in its place.
// A text is read once, left to right, by `indexOf` (no pattern over the text, so no backtracking), and rendered by
// joining its parts: both take time in proportion to the text and the values put into it.

/** What a template may name. */
export type TemplateValue =
  | { of: 'path' }
  | { of: 'query'; name: string }
  | { of: 'body'; path: readonly string[] }
  | { of: 'header'; name: string }
  | { of: 'now' }
  | { of: 'uuid' };

/** A text cut into its literal parts and its templates, in order. */
export type TemplateParts = readonly (string | TemplateValue)[];

/** What the templates of a text read as it is rendered. */
export interface TemplateContext {
  /** The request's path inside its sandbox (`/api/v1/...`), as a rule's `match.path` sees it. */
  path: string;
  /** The first value of a query parameter; undefined when the query has none. */
  query(name: string): string | undefined;
  /** A request header (any case); undefined when absent. */
  header(name: string): string | undefined;
  /** The request body, parsed; undefined when there was none or it was not JSON. */
  body: unknown;
  /** The sandbox clock's time, ISO 8601. */
  now(): string;
  /** The `n`-th uuid of this answer (0 for its first `{{uuid}}`). */
  uuid(n: number): string;
}

/** What the language offers, as an error names it. */
export const TEMPLATE_FORMS =
  '{{request.path}}, {{request.query.NAME}}, {{request.body.PATH}}, {{request.header.NAME}}, {{now}}, {{uuid}}';

/** The longest text between `{{` and `}}`. */
const MAX_TEMPLATE = 200;
/** The most segments a `request.body` path may have. */
const MAX_BODY_DEPTH = 32;

const QUERY_NAME = /^[\w.~[\]-]+$/;
/** An HTTP field name (RFC 9110 `token`). */
export const HEADER_NAME = /^[!#$%&'*+.^`|~\w-]+$/;
const BODY_SEGMENT = /^[\w$-]+$/;

/** One template's text (what is between `{{` and `}}`, spaces around it let go) as what it names; an error text else. */
function meaningOf(text: string): TemplateValue | string {
  const expr = text.replace(/^ +| +$/g, '');
  if (expr === 'request.path') return { of: 'path' };
  if (expr === 'now') return { of: 'now' };
  if (expr === 'uuid') return { of: 'uuid' };
  const named = (prefix: string) => (expr.startsWith(prefix) ? expr.slice(prefix.length) : undefined);
  const query = named('request.query.');
  if (query !== undefined && QUERY_NAME.test(query)) return { of: 'query', name: query };
  const header = named('request.header.');
  if (header !== undefined && HEADER_NAME.test(header)) return { of: 'header', name: header.toLowerCase() };
  const body = named('request.body.');
  if (body !== undefined) {
    const path = body.split('.');
    if (path.length <= MAX_BODY_DEPTH && path.every((segment) => BODY_SEGMENT.test(segment)))
      return { of: 'body', path };
  }
  return `{{${text}}} names nothing: a template is one of ${TEMPLATE_FORMS}`;
}

/**
 * A text with templates, cut into parts; an error text naming the first bad template (one that names nothing, one
 * not closed by `}}`). A text without `{{` is one part, itself.
 */
export function parseTemplate(text: string): { parts: TemplateParts } | { error: string } {
  const parts: (string | TemplateValue)[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('{{', from);
    if (open === -1) break;
    const close = text.indexOf('}}', open + 2);
    if (close === -1 || close - open - 2 > MAX_TEMPLATE) {
      const shown = text.slice(open, open + 40);
      return {
        error: `${JSON.stringify(shown)}${shown.length < text.length - open ? '…' : ''} opens a template that no "}}" closes within ${MAX_TEMPLATE} characters`,
      };
    }
    const value = meaningOf(text.slice(open + 2, close));
    if (typeof value === 'string') return { error: value };
    if (open > from) parts.push(text.slice(from, open));
    parts.push(value);
    from = close + 2;
  }
  if (from < text.length) parts.push(text.slice(from));
  return { parts };
}

/** Whether parts hold a template at all (a text without one is sent as it is, at no cost). */
export const hasTemplates = (parts: TemplateParts): boolean => parts.some((part) => typeof part !== 'string');

/** Whether parts read the request body (which is then read before the answer is made). */
export const readsBody = (parts: TemplateParts): boolean =>
  parts.some((part) => typeof part !== 'string' && part.of === 'body');

/** A value of the request as text: a string as it is, JSON for the rest; '' for nothing. */
function asText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The value at a dotted path of a parsed body: an array's items by their index. */
function at(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Renders parts: each template's value, passed through `escaped` (JSON-escaping where it lands in a JSON string),
 * in its place. Undefined when the result would pass `limit` characters: a template may put a long value (a
 * request body's field) in many places.
 */
export function renderTemplate(
  parts: TemplateParts,
  context: TemplateContext,
  escaped: (text: string) => string,
  limit: number,
): string | undefined {
  const out: string[] = [];
  let length = 0;
  let uuids = 0;
  for (const part of parts) {
    let text: string;
    if (typeof part === 'string') text = part;
    else {
      switch (part.of) {
        case 'path':
          text = context.path;
          break;
        case 'query':
          text = context.query(part.name) ?? '';
          break;
        case 'header':
          text = context.header(part.name) ?? '';
          break;
        case 'body':
          text = asText(at(context.body, part.path));
          break;
        case 'now':
          text = context.now();
          break;
        case 'uuid':
          text = context.uuid(uuids++);
          break;
      }
      text = escaped(text);
    }
    length += text.length;
    if (length > limit) return undefined;
    out.push(text);
  }
  return out.join('');
}

const HTML_REFERENCES = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' } as const;

/** A text as it may go into a page: `< > & " '` as character references, so that it never becomes markup. */
export const htmlEscaped = (text: string): string =>
  text.replace(/[<>&"']/g, (c) => HTML_REFERENCES[c as keyof typeof HTML_REFERENCES]);

/** A text as it goes inside a JSON string: quotes, backslashes and control characters escaped. */
export const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * A version 4 uuid drawn from `seed` and `key` (a rule's event and the template's place in its answer): the same
 * seed and sequence of calls give the same uuids, as every draw of a scenario does.
 */
export function seededUuid(seed: number, key: string): string {
  const bytes = createHash('sha256').update(`${seed}:${key}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
