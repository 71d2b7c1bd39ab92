import * as z from 'zod';
import { failures } from '../contract/failures.js';
import { isReply, type LazySchema, type Reply, type RouteContract } from '../contract/kit.js';
import { errorEnvelope, pagination } from '../contract/wire.js';
import { isSecretField, maskedText } from '../domain/redact.js';

// Where one answer of the real bank differs from what the sandbox's route says it answers: the same contract that
// drives the emulation and the documents. Each finding names a plain dotted path (`data.customerId`, `data[].id`,
// `message`) and holds shapes, JSON types, statuses and documented messages, never a value that could be a secret.
// An answer is up to `--upstream-max-body` of anything: the walk follows the route's schema (none refers to itself),
// so it recurses as deep as the schema and no deeper, however deep the answer; it keeps each finding once and at
// most `MAX_FINDINGS` of them, and every text it takes from the answer (a message, a field's name) is masked and
// cut by `maskedText`, in one pass without a regular expression.

export type FindingKind =
  | 'undocumented-status'
  | 'missing-field'
  | 'extra-field'
  | 'type'
  | 'message'
  | 'unknown-route'
  | 'upstream-error';

export interface Finding {
  kind: FindingKind;
  /** A dotted path into the answer's body (`data.items[].amount`); `status`, `body` or `connection` for the rest. */
  at: string;
  expected: string;
  seen: string;
}

type JsonSchema = { [key: string]: unknown };

/** The JSON type of a value, as JSON Schema names them (`integer` for a whole number). */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const fits = (expected: string, seen: string) =>
  expected === seen || (expected === 'number' && seen === 'integer');

/** A documented value as a finding may show it: constants and enums are the documents' own words. */
const shown = (value: unknown) => JSON.stringify(value);

/** A value seen where a documented constant was expected: shown unless it could be a secret. */
function seenValue(at: string, value: unknown): string {
  const field =
    at
      .split(/[.[\]]/)
      .filter(Boolean)
      .at(-1) ?? '';
  if (typeof value === 'string' && (isSecretField(field) || value.length > 40)) return `a ${jsonType(value)}`;
  return maskedText(shown(value));
}

/** The findings one answer yields at most: as many as the report keeps for a route. */
export const MAX_FINDINGS = 200;
/** The longest field name a finding's path shows of one the answer made up (`extra-field`). */
const FIELD_NAME_LIMIT = 64;

/** Findings as they are found: each kind and path once (an array's items share theirs), and at most `MAX_FINDINGS`. */
class Found {
  readonly list: Finding[] = [];
  private readonly keys = new Set<string>();

  add(finding: Finding): void {
    const key = `${finding.kind} ${finding.at}`;
    if (this.list.length >= MAX_FINDINGS || this.keys.has(key)) return;
    this.keys.add(key);
    this.list.push(finding);
  }

  get full(): boolean {
    return this.list.length >= MAX_FINDINGS;
  }
}

/** JSON Schema of a wire schema, as the documents give it (their input side), built once per schema. */
const built = new WeakMap<object, JsonSchema>();
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  let json = built.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    built.set(schema, json);
  }
  return json;
}
const lazySchema = (lazy: LazySchema) => jsonSchemaOf(lazy());

/** The JSON types a schema allows; undefined where it allows any. */
function typesOf(schema: JsonSchema, root: JsonSchema): string[] | undefined {
  const resolved = resolve(schema, root);
  const branches = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const all = branches.map((b) => typesOf(b, root));
    return all.some((t) => t === undefined) ? undefined : [...new Set(all.flat() as string[])];
  }
  if (typeof resolved.type === 'string') return [resolved.type];
  if (Array.isArray(resolved.type)) return resolved.type as string[];
  if ('const' in resolved) return [jsonType(resolved.const)];
  if (Array.isArray(resolved.enum)) return [...new Set(resolved.enum.map(jsonType))];
  if (resolved.properties) return ['object'];
  if (resolved.items) return ['array'];
  return undefined;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace(/^#\/(\$defs|definitions)\//, '');
  const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, JsonSchema>;
  return defs[name] ?? {};
}

/** The findings of `value` at `at` against `schema`. */
function walk(schema: JsonSchema, value: unknown, at: string, root: JsonSchema, out: Found): void {
  if (out.full) return;
  const s = resolve(schema, root);
  if (Array.isArray(s.allOf)) for (const part of s.allOf as JsonSchema[]) walk(part, value, at, root, out);
  const seen = jsonType(value);
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const fitting = branches.filter((b) => {
      const types = typesOf(b, root);
      return types === undefined || types.some((t) => fits(t, seen));
    });
    if (fitting.length === 0) {
      out.add({ kind: 'type', at, expected: (typesOf(s, root) ?? []).join(' or '), seen });
      return;
    }
    // The branch the value comes closest to: the one with the fewest findings.
    let best: Found | undefined;
    for (const branch of fitting) {
      const found = new Found();
      walk(branch, value, at, root, found);
      if (!best || found.list.length < best.list.length) best = found;
      if (found.list.length === 0) break;
    }
    for (const finding of best?.list ?? []) out.add(finding);
    return;
  }
  const types = typesOf(s, root);
  if (types && !types.some((t) => fits(t, seen))) {
    out.add({ kind: 'type', at, expected: types.join(' or '), seen });
    return;
  }
  if ('const' in s && s.const !== value) {
    out.add({ kind: 'type', at, expected: shown(s.const), seen: seenValue(at, value) });
    return;
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value)) {
    out.add({
      kind: 'type',
      at,
      expected: `one of ${s.enum.map(shown).join(', ')}`,
      seen: seenValue(at, value),
    });
    return;
  }
  if (seen === 'object' && (s.properties || s.additionalProperties === false)) {
    const record = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as string[]);
    for (const [key, property] of Object.entries(properties)) {
      const path = at ? `${at}.${key}` : key;
      if (Object.hasOwn(record, key)) walk(property, record[key], path, root, out);
      else if (required.has(key))
        out.add({
          kind: 'missing-field',
          at: path,
          expected: (typesOf(property, root) ?? ['any']).join(' or '),
          seen: 'absent',
        });
    }
    if (s.additionalProperties === false) {
      for (const key in record) {
        if (out.full) return;
        if (!Object.hasOwn(properties, key)) {
          // A name the answer made up: it is shown as any text from outside is, masked and cut.
          const name = maskedText(key, FIELD_NAME_LIMIT);
          out.add({
            kind: 'extra-field',
            at: at ? `${at}.${name}` : name,
            expected: 'absent',
            seen: jsonType(record[key]),
          });
        }
      }
    }
  }
  if (seen === 'array' && s.items && typeof s.items === 'object') {
    for (const item of value as unknown[]) {
      if (out.full) return;
      walk(s.items as JsonSchema, item, `${at}[]`, root, out);
    }
  }
}

/** Findings of a body against a schema, each path once. */
function findingsOf(schema: JsonSchema, body: unknown): Finding[] {
  const out = new Found();
  walk(schema, body, '', schema, out);
  return out.list;
}

/** The envelope a success reply documents, as JSON Schema over the reply's own schemas. */
function replySchema(reply: Reply): JsonSchema | undefined {
  if (reply.kind === 'raw') return reply.schema ? lazySchema(reply.schema) : undefined;
  const properties: Record<string, unknown> = { status: { const: true }, message: { type: 'string' } };
  const required = ['status', 'message'];
  const defs: Record<string, unknown> = {};
  if (reply.kind === 'data' || reply.kind === 'page') {
    const data = lazySchema(reply.schema);
    Object.assign(defs, data.$defs);
    properties.data = reply.kind === 'page' ? { type: 'array', items: data } : data;
    required.push('data');
  }
  if (reply.kind === 'page') {
    properties.pagination = lazySchema(pagination);
    required.push('pagination');
  }
  return { type: 'object', properties, required, additionalProperties: false, $defs: defs };
}

/**
 * The messages a status's causes quote (in backticks), each as its fixed parts around the placeholders (`…`,
 * `<name>`); none where a cause is prose alone.
 */
function documentedMessages(causes: readonly string[]): string[][] | undefined {
  const templates: string[][] = [];
  for (const cause of causes) {
    const quoted = /^`([^`]+)`/.exec(cause)?.[1];
    if (quoted === undefined) return undefined;
    templates.push(quoted.split(/…|<[^>]+>/));
  }
  return templates;
}

/**
 * Whether `text` is a message of `template` (its fixed parts, any text in each placeholder): the first part begins
 * it, the last ends it, the others come in order between. Found by `indexOf`, leftmost first, which is enough for
 * placeholders that take any text; no pattern, so no backtracking over a message of megabytes.
 */
export function fitsTemplate(template: readonly string[], text: string): boolean {
  const first = template[0] ?? '';
  if (template.length === 1) return text === first;
  const last = template.at(-1) ?? '';
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  for (const part of template.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Where an answer of `route` at `status` (its body parsed, or `undefined` when it was not JSON) differs from what
 * the route documents.
 */
export function checkAnswer(
  route: RouteContract,
  status: number,
  body: unknown,
  contentType: string | null,
): Finding[] {
  const response = route.responses[status];
  const causes = failures(route, true).get(status);
  if (response === undefined && causes === undefined) {
    const documented = [
      ...new Set([...Object.keys(route.responses), ...failures(route, true).keys()].map(String)),
    ];
    return [
      {
        kind: 'undocumented-status',
        at: 'status',
        expected: documented.sort().join(', '),
        seen: String(status),
      },
    ];
  }
  const reply = isReply(response) ? response : undefined;
  const schema = reply ? replySchema(reply) : jsonSchemaOf(errorEnvelope());
  if (schema === undefined) return [];
  if (body === undefined)
    return [
      {
        kind: 'upstream-error',
        at: 'body',
        expected: 'JSON',
        seen: contentType ? `not JSON (${contentType})` : 'not JSON',
      },
    ];
  const found = findingsOf(schema, body);
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message === 'string') {
    if (reply && reply.kind !== 'raw' && message !== reply.message)
      found.push({ kind: 'message', at: 'message', expected: reply.message, seen: maskedText(message) });
    const templates = !reply && causes ? documentedMessages(causes) : undefined;
    if (templates && !templates.some((template) => fitsTemplate(template, message)))
      found.push({
        kind: 'message',
        at: 'message',
        expected: causes?.map((c) => /^`([^`]+)`/.exec(c)?.[1]).join(' | ') ?? '',
        seen: maskedText(message),
      });
  }
  return found;
}
