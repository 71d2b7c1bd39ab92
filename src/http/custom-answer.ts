import { STATUS_CODES } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import {
  BODYLESS_STATUSES,
  type CustomAnswer,
  MAX_RENDERED_BODY,
  NO_ANSWER_FAULTS,
  type TransportFault,
} from '../contract/scenarios.js';
import { isoAt } from '../domain/clock.js';
import { ApiError } from '../domain/errors.js';
import {
  hasTemplates,
  htmlEscaped,
  jsonEscaped,
  parseTemplate,
  readsBody,
  renderTemplate,
  seededUuid,
  type TemplateContext,
  type TemplateParts,
} from '../domain/template.js';
import { answerTooLarge, headerRefused } from '../log-events.js';
import type { AppEnv } from './env.js';
import { ANSWER_TEXT, errorAnswer, type WithAnswerText } from './envelope.js';
import { header } from './headers.js';

// A scenario rule's own answer (`effect.http`), in the route's stead (an `http` rule) or the error's (an `error`
// rule): the envelope of a status and message, a JSON body as written with its templates rendered, or a text byte
// for byte; and the stand-in answer of a transport fault that breaks the connection before any answer.

/** A custom answer made ready once: its text, cut into parts where it holds templates. */
interface Prepared {
  /** The body as sent when it holds no template; null for a status that has none. */
  text: string | null;
  /** The body's parts, where it holds templates. */
  parts: TemplateParts | null;
  readsBody: boolean;
  headers: [string, string][];
  /** The answer is JSON: the request journal keeps its text. */
  json: boolean;
  /** How a template's value goes into the body: HTML-escaped too unless the content type is JSON's. */
  escaped: (text: string) => string;
  /** The headers whose values hold templates, cut into parts; null when none does. */
  headerParts: [name: string, parts: TemplateParts][] | null;
}

/** The most bytes a header's value may have once its templates are rendered. */
const MAX_HEADER_BYTES = 8192;
/** What a rendered header value may hold: visible characters, spaces and tabs, in one line of Latin-1. */
const SENDABLE_HEADER = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Each rule's answer prepared once, kept with the rule's own (parsed, never changed) object: a cache of pure
 * results, like the drift check's schemas, which every world may share.
 */
const preparedAnswers = new WeakMap<CustomAnswer, Prepared>();

const JSON_TYPE = /[/+]json\b/i;

/**
 * What a custom answer carries unless its rule sets the header itself: a rule's answer is served on the sandbox's
 * own origin, and neither a sniffed type nor a page of it may run a script there.
 */
const GUARD_HEADERS: readonly [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['content-security-policy', 'sandbox'],
];

/** Whether a content type is JSON's: `application/json` or a `+json` type, whatever its parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const media = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || (media.endsWith('+json') && media.includes('/'));
}

/** A value into a JSON string of a body a browser may take for a page: HTML-escaped, then JSON-escaped. */
const htmlThenJsonEscaped = (text: string): string => jsonEscaped(htmlEscaped(text));

function prepare(answer: CustomAnswer): Prepared {
  const known = preparedAnswers.get(answer);
  if (known) return known;
  const given = Object.entries(answer.headers ?? {});
  const named = new Set(given.map(([name]) => name.toLowerCase()));
  const typed = given.find(([name]) => name.toLowerCase() === 'content-type');
  const headers: [string, string][] = typed ? [...given] : [['content-type', 'application/json'], ...given];
  for (const guard of GUARD_HEADERS) if (!named.has(guard[0])) headers.push(guard);
  const json = JSON_TYPE.test(typed?.[1] ?? 'application/json');
  const escaped = isJsonMediaType(typed?.[1] ?? 'application/json') ? jsonEscaped : htmlThenJsonEscaped;
  let text: string | null;
  let parts: TemplateParts | null = null;
  if (BODYLESS_STATUSES.has(answer.status)) text = null;
  else if (answer.bodyText !== undefined) text = answer.bodyText;
  else if (answer.body !== undefined) {
    text = JSON.stringify(answer.body);
    // The JSON text holds a `{{` only inside its strings: each template lands in a string, and its value is escaped
    // as one. The scenario's schema has checked every template, so this parse finds no error.
    const parsed = parseTemplate(text);
    if ('parts' in parsed && hasTemplates(parsed.parts)) parts = parsed.parts;
  } else {
    const message = answer.message ?? STATUS_CODES[answer.status] ?? `Status ${answer.status}`;
    text = JSON.stringify({ status: answer.status < 400, message, data: null });
  }
  const headerParts: [string, TemplateParts][] = [];
  for (const [name, value] of given) {
    const parsedValue = parseTemplate(value);
    if ('parts' in parsedValue && hasTemplates(parsedValue.parts))
      headerParts.push([name, parsedValue.parts]);
  }
  const made: Prepared = {
    text,
    parts,
    readsBody:
      (parts !== null && readsBody(parts)) ||
      headerParts.some(([, headerTemplate]) => readsBody(headerTemplate)),
    headers,
    json,
    escaped,
    headerParts: headerParts.length > 0 ? headerParts : null,
  };
  preparedAnswers.set(answer, made);
  return made;
}

/** Whether an answer is the plain envelope of an error (status 400 or more, a message at most). */
export const isPlainError = (answer: CustomAnswer): boolean =>
  answer.status >= 400 &&
  answer.body === undefined &&
  answer.bodyText === undefined &&
  answer.headers === undefined;

/** Where a rule's `{{uuid}}`s are drawn from: the scenario's seed and the event the rule fired on. */
export interface UuidDraw {
  seed: number;
  /** The rule's index and the event's key (`3 POST /api/v1/... 5`). */
  key: string;
}

function respond(
  answer: CustomAnswer,
  made: Prepared,
  text: string | null,
  headers: [string, string][] = made.headers,
): Response {
  const res: WithAnswerText = new Response(text, { status: answer.status, headers });
  if (made.json && text !== null) res[ANSWER_TEXT] = text;
  return res;
}

/** What the templates of one request read. */
function contextOf(c: Context<AppEnv>, draw: UuidDraw): TemplateContext {
  const text = c.env.facts.requestText;
  let body: unknown;
  if (text !== undefined && text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return {
    path: c.req.path,
    query: (name) => c.req.query(name),
    header: (name) => header(c, name),
    body,
    now: () => isoAt(c.env.world.deps.clock),
    uuid: (n) => seededUuid(draw.seed, `${draw.key} uuid ${n}`),
  };
}

function rendered(c: Context<AppEnv>, answer: CustomAnswer, made: Prepared, draw: UuidDraw): Response {
  const parts = made.parts;
  const context = parts === null && made.headerParts === null ? null : contextOf(c, draw);
  let headers = made.headers;
  if (made.headerParts !== null && context !== null) {
    const values = new Map<string, string>();
    for (const [name, template] of made.headerParts) {
      // Rendered as they are (a header is no JSON string), then held to what a header may carry: never split.
      const value = renderTemplate(template, context, (t) => t, MAX_HEADER_BYTES);
      if (value === undefined || Buffer.byteLength(value) > MAX_HEADER_BYTES)
        return refuseHeader(c, name, `rendered to more than ${MAX_HEADER_BYTES} bytes`);
      if (!SENDABLE_HEADER.test(value))
        return refuseHeader(c, name, 'held a line break or a character a header cannot carry');
      values.set(name, value);
    }
    headers = made.headers.map(([name, value]) => [name, values.get(name) ?? value]);
  }
  if (parts === null || context === null) return respond(answer, made, made.text, headers);
  const text = renderTemplate(parts, context, made.escaped, MAX_RENDERED_BODY);
  return text === undefined ? tooLarge(c) : respond(answer, made, text, headers);
}

/**
 * The answer to a request whose rule's header rendered to something no header may carry (a line break a template
 * put in it, or a value past 8192 bytes): 502, and a log line, as for a body too large. Never a split header.
 */
function refuseHeader(c: Context<AppEnv>, name: string, why: string): Response {
  const rule = c.env.facts.scenario ?? null;
  const which = rule === null ? '' : ` (scenario "${rule.name}", rule ${rule.rule})`;
  const message = `The scenario rule's custom answer${which} header ${name} ${why}: it was not sent. The rule's answer failed, not the sandbox`;
  c.env.world.deps.log(headerRefused(c.req.method, c.req.path, c.env.facts.requestId, rule, name, message));
  return errorAnswer(new ApiError(502, message));
}

/**
 * The answer to a request whose rule's answer rendered past `MAX_RENDERED_BODY`: 502, as a gateway answers when what
 * stands behind it gave no usable answer. The rule failed, not the sandbox, so it is no 500 (which the contract keeps
 * for the sandbox's own failures); it is still logged, since the test asked for something else and its app only
 * sees a 502.
 */
function tooLarge(c: Context<AppEnv>): Response {
  const rule = c.env.facts.scenario ?? null;
  const which = rule === null ? '' : ` (scenario "${rule.name}", rule ${rule.rule})`;
  const message = `The scenario rule's custom answer${which} rendered to more than ${MAX_RENDERED_BODY} characters: a template put a long value of the request in it. The rule's answer failed, not the sandbox`;
  c.env.world.deps.log(
    answerTooLarge(c.req.method, c.req.path, c.env.facts.requestId, rule, MAX_RENDERED_BODY, message),
  );
  return errorAnswer(new ApiError(502, message));
}

/**
 * A rule's custom answer to the request. `bound`, for an `http` rule, which answers before the route reads the body:
 * the route's own bound on its body (the middleware the mount puts in front of it; `--body-limit` where the route
 * has none, or no route takes the path). Where the templates name a part of the body, it is read first within that
 * bound, so that a body the route would take is read, and one it would refuse gets the route's own refusal (413, or
 * a bulk create's 400). Null for an `error` rule: its templates read the body the route read, if it read one.
 */
export function customAnswerOf(
  c: Context<AppEnv>,
  answer: CustomAnswer,
  draw: UuidDraw,
  bound: MiddlewareHandler<AppEnv> | null,
): Response | Promise<Response> {
  const made = prepare(answer);
  if (!made.readsBody || bound === null || c.env.facts.requestText !== undefined)
    return rendered(c, answer, made, draw);
  const read = bound(c, async () => {
    c.env.facts.requestText = await c.req.text();
  });
  return Promise.resolve(read).then(() => rendered(c, answer, made, draw));
}

/**
 * What a fault that sends no answer (`reset`, `empty`, `garbage`) answers where there is no connection to break (in
 * process, `app.request()`): 502, the envelope saying which fault it would have been. Over a connection, the front
 * breaks it instead (`src/http/transport-fault.ts`) and this is never sent.
 */
export function faultStandIn(fault: TransportFault): Response {
  return errorAnswer(new ApiError(502, faultMessage(fault, null)));
}

/** The message of a fault's stand-in answer: `size`, for a truncated one, the answer's status and bytes. */
export function faultMessage(fault: TransportFault, size: { status: number; bytes: number } | null): string {
  const what =
    fault.kind === 'reset'
      ? 'the connection would be reset with no answer'
      : fault.kind === 'empty'
        ? 'the connection would be closed with no answer'
        : fault.kind === 'garbage'
          ? 'bytes that are not HTTP would be sent, then the connection closed'
          : size === null
            ? 'the answer would be cut off after half its body'
            : `the answer (${size.status}, ${size.bytes} bytes) would be cut off after ${Math.floor(size.bytes / 2)} bytes`;
  return `Transport fault "${fault.kind}" of the scenario: over a connection, ${what}`;
}

/** Whether a fault breaks the connection before any answer. */
export const sendsNoAnswer = (fault: TransportFault): boolean => NO_ANSWER_FAULTS.has(fault.kind);
