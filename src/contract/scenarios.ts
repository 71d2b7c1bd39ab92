import * as z from 'zod';
import { canonicalId } from '../domain/ids.js';
import { HEADER_NAME, parseTemplate } from '../domain/template.js';
import { between, bodyPath, named, over, pattern } from './scenario-match.js';

export { DAILY_TIME, MAX_WINDOW_MS, type Over, readBound } from './scenario-match.js';

/** An error answer's status: what `match.status` bounds. */
const errorStatus = z.number().int().min(400).max(599);

/** A client's or a business's id, as a scoped rule names it (compared as the store keys ids: see `canonicalId`). */
const ownerId = z.string().min(1).max(100).transform(canonicalId);

export const ruleMatch = z
  .object({
    /**
     * Every kind of rule: only what belongs to this client (its requests, whoever signs in for it, its transfers,
     * bulk items and webhooks), so parallel tests that share one sandbox, a client each, never meet.
     */
    clientId: ownerId.optional(),
    /** Every kind of rule: only what belongs to this business (the `businessId` header, a transfer's business). */
    businessId: ownerId.optional(),
    /** Receiver (transfer, bulk item) or virtual account (webhook) number, exactly. */
    accountNumber: z
      .string()
      .regex(/^\d{10}$/, 'must be 10 digits')
      .optional(),
    /** The same, as a regular expression. */
    accountNumberPattern: pattern.optional(),
    bankCode: z
      .string()
      .regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code')
      .optional(),
    /** Amount in kobo, both bounds inclusive. */
    amount: z
      .object({
        min: z.number().int().nonnegative().optional(),
        max: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    batchName: z.string().min(1).optional(),
    /** A bulk item's 0-based position in its batch, both bounds inclusive. */
    itemIndex: z
      .object({
        min: z.number().int().nonnegative().optional(),
        max: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    /** Every Nth matching event: transfers and webhooks count per rule; a bulk item counts by its itemIndex. */
    everyNth: z.number().int().min(1).optional(),
    /**
     * `business`: `everyNth` counts the business's own transfers (or webhook deliveries) as the sandbox numbers them
     * since the rules in force were chosen, a replayed reference not counted, so each business of a shared sandbox
     * has its own every Nth. `rule` (the default): the rule's own count of events that met its conditions.
     */
    everyNthPer: z.enum(['rule', 'business']).optional(),
    /**
     * Chance of matching, drawn from the scenario's seed, the rule and the event's ordinal (see `drawBy`): the
     * same sequence of calls draws the same, whatever references the client makes up.
     */
    probability: z.number().min(0).max(1).optional(),
    /**
     * What a `probability` draw is keyed on: `ordinal` (the default) is where the event stands in what the
     * sandbox counted since the rules were chosen; `reference` (transfer and bulk.item rules only) is the
     * client's `retrievalReference`, so one reference fails the same way whatever order it comes in.
     */
    drawBy: z.enum(['ordinal', 'reference']).optional(),
    /** HTTP and error rules: method, and the path as a regular expression. */
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
    path: pattern.optional(),
    /** Error rules: the status the answer has, both bounds inclusive. */
    status: z.object({ min: errorStatus.optional(), max: errorStatus.optional() }).strict().optional(),
    /**
     * Error rules: `true` matches a validation failure only (an answer whose `errors` names each bad field),
     * `false` every other error.
     */
    validation: z.boolean().optional(),
    /** Every kind of rule: only while the sandbox clock is in [from, to) (instants, or daily Lagos times). */
    between: between.optional(),
    /** Every kind of rule: only past a count or an amount within a sliding window (see `over`). */
    over: over.optional(),
    /** HTTP and error rules: request headers (names in any case), each value matched by its pattern. */
    header: named(z.string().regex(HEADER_NAME, 'must be an HTTP header name')),
    /** HTTP and error rules: query parameters, each value matched by its pattern. */
    query: named(z.string().min(1).max(200)),
    /** HTTP and error rules: values of the JSON body at dotted paths; one that is not a string as its JSON text. */
    body: named(bodyPath),
    /** Transfer and bulk item rules: the narration, as a regular expression. */
    narration: pattern.optional(),
  })
  .strict();

/** The most bytes a custom answer's body may have as written (its JSON text, or `bodyText`). */
export const MAX_CUSTOM_BODY_BYTES = 65_536;
/** The most characters a custom answer's body may have once its templates are rendered. */
export const MAX_RENDERED_BODY = 1_048_576;
/** How deep a custom answer's body may nest (objects and arrays). */
const MAX_BODY_NESTING = 64;
/** The most headers a custom answer may set. */
const MAX_CUSTOM_HEADERS = 32;

/**
 * Headers a custom answer may not set: those of the connection and of the message's framing (RFC 9110 7.6.1, RFC
 * 9112 6), which the server writes from the body it sends (a wrong one would break the connection, not the answer:
 * that is what `fault` is for), and the sandbox's own request id.
 */
export const CUSTOM_HEADERS_REFUSED: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'host',
  'x-request-id',
]);

/** Statuses whose answer has no body (RFC 9110 15.3.5, 15.3.6, 15.4.5). */
export const BODYLESS_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

/** What a header value may hold: visible characters, spaces and tabs (no line break). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The JSON body of a custom answer checked: nesting, size, and each string's templates (keys included). */
function checkCustomBody(body: unknown, ctx: z.RefinementCtx): void {
  // Walked with a list of its own rather than recursion: a body nested thousands deep must be told so, not crash.
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: body, path: ['body'] }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined) break;
    const { value, path } = next;
    if (path.length - 1 > MAX_BODY_NESTING) {
      ctx.addIssue({ code: 'custom', path, message: `nests deeper than ${MAX_BODY_NESTING} levels` });
      return;
    }
    const check = (text: string, where: (string | number)[]) => {
      const parsed = parseTemplate(text);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', path: where, message: parsed.error });
      return !('error' in parsed);
    };
    if (typeof value === 'string') {
      if (!check(value, path)) return;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        pending.push({ value: item, path: [...path, i] });
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (!check(key, [...path, key])) return;
        pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > MAX_CUSTOM_BODY_BYTES)
    ctx.addIssue({
      code: 'custom',
      path: ['body'],
      message: `is ${bytes} bytes as JSON: at most ${MAX_CUSTOM_BODY_BYTES}`,
    });
}

/**
 * A custom answer: any final status, and either the envelope (`message`: `{status, message, data: null}`, whose
 * `status` is true below 400), a JSON `body` sent as it is written (its strings' templates rendered), or a
 * `bodyText` sent byte for byte (a malformed body on purpose); optional headers and a delay first.
 */
export const customAnswer = z
  .object({
    status: z.number().int().min(200).max(599),
    /** The envelope's message; without `body` or `bodyText`, the status's reason phrase when left out. */
    message: z.string().min(1).max(200).optional(),
    /** Any JSON, sent as it is instead of the envelope; `{{...}}` in its strings are templates. */
    body: z.unknown().optional(),
    /** Text sent byte for byte (no templates): a body that is not JSON, or broken JSON, on purpose. */
    bodyText: z.string().max(MAX_CUSTOM_BODY_BYTES).optional(),
    /** Headers of the answer (`content-type` is `application/json` unless given). */
    headers: z
      .record(
        z
          .string()
          .regex(HEADER_NAME, 'must be an HTTP header name')
          .refine(
            (name) => !CUSTOM_HEADERS_REFUSED.has(name.toLowerCase()),
            'is a header the server writes itself (the connection’s, the framing’s, the request id): a broken connection is a fault',
          ),
        z
          .string()
          .max(8192)
          .regex(HEADER_VALUE, 'must be one line of visible characters')
          .superRefine((value, ctx) => {
            // A header value is a template too: `{{request.header.x-trace}}`.
            const parsed = parseTemplate(value);
            if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
          }),
      )
      .refine((headers) => Object.keys(headers).length <= MAX_CUSTOM_HEADERS, {
        message: `at most ${MAX_CUSTOM_HEADERS} headers`,
      })
      .optional(),
    /** Wait this long before answering, ms. */
    delayMs: z.number().int().min(0).max(60_000).optional(),
  })
  .strict()
  .superRefine((answer, ctx) => {
    const given = (['message', 'body', 'bodyText'] as const).filter((key) => answer[key] !== undefined);
    if (given.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: [given[1] ?? 'body'],
        message: `give one of message (the envelope), body (JSON) or bodyText, not ${given.join(' and ')}`,
      });
    if (BODYLESS_STATUSES.has(answer.status))
      for (const key of given)
        ctx.addIssue({ code: 'custom', path: [key], message: `a ${answer.status} answer has no body` });
    if (answer.body !== undefined) checkCustomBody(answer.body, ctx);
    if (answer.bodyText !== undefined && Buffer.byteLength(answer.bodyText) > MAX_CUSTOM_BODY_BYTES)
      ctx.addIssue({ code: 'custom', path: ['bodyText'], message: `at most ${MAX_CUSTOM_BODY_BYTES} bytes` });
  });
export type CustomAnswer = z.infer<typeof customAnswer>;

/** The transport faults, by name. */
export const faultKind = z.enum(['reset', 'empty', 'truncated', 'garbage', 'slowBody']);

/** Faults that break the connection before any answer: nothing of one is sent. */
export const NO_ANSWER_FAULTS: ReadonlySet<string> = new Set(['reset', 'empty', 'garbage']);

/**
 * A transport fault: `reset` (the connection reset, no answer), `empty` (closed, no answer), `garbage` (bytes that
 * are not HTTP, then closed), `truncated` (status, headers, half the body, then closed), `slowBody` (the body sent
 * at `bytesPerSecond`).
 */
export const transportFault = z
  .object({
    kind: faultKind,
    /** slowBody: how fast the body goes out, bytes a second. */
    bytesPerSecond: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict()
  .superRefine((fault, ctx) => {
    if (fault.kind === 'slowBody' && fault.bytesPerSecond === undefined)
      ctx.addIssue({ code: 'custom', path: ['bytesPerSecond'], message: 'is required for a slowBody fault' });
    if (fault.kind !== 'slowBody' && fault.bytesPerSecond !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bytesPerSecond'],
        message: `applies to a slowBody fault only, not to "${fault.kind}"`,
      });
  });
export type TransportFault = z.infer<typeof transportFault>;
export type FaultKind = z.infer<typeof faultKind>;

/** The latest a scheduled reversal may come: 30 days. */
export const MAX_REVERSE_AFTER_MS = 2_592_000_000;
/** The latest a late duplicate webhook may come: 7 days. */
export const MAX_DUPLICATE_AFTER_MS = 604_800_000;

export const ruleEffect = z
  .object({
    /** Fail a transfer or bulk item with this provider code and message. */
    fail: z
      .object({ errorCode: z.string().min(1).max(10), errorMessage: z.string().min(1).max(200) })
      .strict()
      .optional(),
    /** Wait this long first (transfers, bulk items, HTTP routes, webhook attempts). */
    delayMs: z.number().int().min(0).max(60_000).optional(),
    /** Keep a bulk item `processing` until `POST /__sandbox/drain` (or a scenario change) releases it. */
    hold: z.literal(true).optional(),
    /**
     * HTTP rules: answer in the route's stead, before its handler runs; error rules: answer in the error's stead.
     * See `customAnswer`.
     */
    http: customAnswer.optional(),
    /** HTTP and error rules: break the connection the answer goes out on (see `transportFault`). */
    fault: transportFault.optional(),
    /** What happens to a webhook delivery attempt. */
    webhook: z.enum(['drop', 'duplicate', 'refuse']).optional(),
    /**
     * With `webhook: "duplicate"`: the second, identical delivery goes this much later on the sandbox clock (ms, at
     * most 7 days) instead of at once, as a delivery of its own.
     */
    afterMs: z.number().int().min(0).max(MAX_DUPLICATE_AFTER_MS).optional(),
    /**
     * `commit`: the call runs as if no rule had fired (checked, debited, audited, journaled), and only then does the
     * client get this rule's `fault` or `http` answer instead of the real one: the answer lost after the bank
     * committed. `receive` (the same as leaving it out): the answer or fault replaces the call before anything
     * changes. A rule with `after: "commit"` does not stop the rules after it.
     */
    after: z.enum(['commit', 'receive']).optional(),
    /**
     * Transfer and bulk item rules: the transfer succeeds as usual and is reversed `afterMs` later on the sandbox
     * clock (its amount and charge credited back). A rule with `reverse` does not stop the rules after it.
     */
    reverse: z
      .object({
        afterMs: z.number().int().min(0).max(MAX_REVERSE_AFTER_MS),
        reason: z.string().trim().min(1).max(200).optional(),
      })
      .strict()
      .optional(),
    /**
     * Error rules: the error answer goes out with this status instead, its body unchanged. 200 is the bank's
     * "some error conditions may return 200 with status: false": the envelope still says `status: false`.
     */
    status: z
      .number()
      .int()
      .min(200)
      .max(599)
      .refine((s) => s === 200 || s >= 400, 'must be 200, or 400 to 599')
      .optional(),
  })
  .strict()
  .refine(
    (e) => Object.keys(e).length > 0,
    'an effect needs at least one of fail, delayMs, hold, http, fault, webhook, status, reverse',
  );

/**
 * Whether a rule rides along rather than decides: an answer lost after the commit or a reversal later changes
 * nothing of how the call itself runs, so the rules after it are still asked.
 */
export const ridesAlong = (effect: RuleEffect): boolean =>
  effect.after === 'commit' || effect.reverse !== undefined;

export const scenarioRule = z
  .object({
    /**
     * `error`: an error answer of `/api/v1` (any route, a path no route takes, an `http` rule's own answer), just
     * before it is sent; never one of `/__sandbox`.
     */
    on: z.enum(['transfer', 'bulk.item', 'webhook', 'http', 'error']),
    match: ruleMatch.default({}),
    effect: ruleEffect,
    /** How many times the rule applies; unlimited when left out. */
    times: z.number().int().min(1).optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const { effect, on } = rule;
    const allowed: Record<typeof on, (keyof typeof effect)[]> = {
      transfer: ['fail', 'delayMs', 'after', 'http', 'fault', 'reverse'],
      'bulk.item': ['fail', 'delayMs', 'hold', 'reverse'],
      webhook: ['webhook', 'delayMs', 'afterMs'],
      http: ['http', 'delayMs', 'fault', 'after'],
      error: ['status', 'http', 'fault'],
    };
    for (const key of Object.keys(effect) as (keyof typeof effect)[]) {
      if (!allowed[on].includes(key)) {
        ctx.addIssue({ code: 'custom', path: ['effect', key], message: `does not apply to "${on}" rules` });
      }
    }
    afterTheAnswer(rule, ctx);
    const kind = effect.fault?.kind;
    // A connection broken before any answer has no answer to give: what shapes one does not apply.
    if (kind !== undefined && NO_ANSWER_FAULTS.has(kind))
      for (const key of ['http', 'status'] as const)
        if (effect[key] !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['effect', key],
            message: `does not apply with fault "${kind}", which sends no answer (truncated and slowBody take one)`,
          });
    if (effect.http?.delayMs !== undefined && effect.delayMs !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['effect', 'http', 'delayMs'],
        message: 'give the delay once: effect.delayMs or effect.http.delayMs',
      });
    if (on === 'error' && effect.http !== undefined && effect.status !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['effect', 'status'],
        message: 'does not apply with effect.http: give the status as effect.http.status',
      });
    if (rule.match.drawBy === 'reference' && on !== 'transfer' && on !== 'bulk.item') {
      ctx.addIssue({
        code: 'custom',
        path: ['match', 'drawBy'],
        message: `"reference" applies to transfer and bulk.item rules only, not to "${on}" rules`,
      });
    }
    const onlyOn = (key: 'header' | 'query' | 'body' | 'narration', kinds: readonly string[]) => {
      if (rule.match[key] !== undefined && !kinds.includes(on))
        ctx.addIssue({
          code: 'custom',
          path: ['match', key],
          message: `applies to ${kinds.join(' and ')} rules only, not to "${on}" rules`,
        });
    };
    for (const key of ['header', 'query', 'body'] as const) onlyOn(key, ['http', 'error']);
    onlyOn('narration', ['transfer', 'bulk.item']);
    if (rule.match.over?.amount !== undefined && on !== 'transfer' && on !== 'bulk.item')
      ctx.addIssue({
        code: 'custom',
        path: ['match', 'over', 'amount'],
        message: `counts the amounts of transfers: it applies to transfer and bulk.item rules only, not to "${on}" rules`,
      });
    // Only an error answer has a status and may be a validation failure: elsewhere these would never match.
    for (const key of ['status', 'validation'] as const) {
      if (rule.match[key] !== undefined && on !== 'error') {
        ctx.addIssue({
          code: 'custom',
          path: ['match', key],
          message: `applies to error rules only, not to "${on}" rules`,
        });
      }
    }
  });

/** The effects of section "money after the answer" checked together: `after`, `reverse` and `afterMs`. */
function afterTheAnswer(rule: { on: string; effect: RuleEffect }, ctx: z.RefinementCtx): void {
  const { effect, on } = rule;
  const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const lost = effect.after === 'commit';
  if (lost && effect.fault === undefined && effect.http === undefined)
    issue(
      ['effect', 'after'],
      'needs a fault or an http answer: what the client gets instead of the committed answer',
    );
  // A transfer's own answer is the bank's: a rule replaces it only once the transfer is committed.
  if (on === 'transfer' && !lost)
    for (const key of ['fault', 'http'] as const)
      if (effect[key] !== undefined)
        issue(
          ['effect', key],
          'applies to transfer rules only with after: "commit" (the answer lost after the commit)',
        );
  if (effect.afterMs !== undefined && effect.webhook !== 'duplicate')
    issue(['effect', 'afterMs'], 'applies with webhook: "duplicate" only (when the second delivery goes)');
  if (effect.reverse !== undefined)
    for (const key of ['fail', 'delayMs'] as const)
      if (effect[key] !== undefined)
        issue(
          ['effect', key],
          key === 'fail'
            ? 'does not apply with reverse: a failed transfer is never reversed'
            : 'does not apply with reverse, which changes nothing of how the transfer runs: give the delay in a rule of its own',
        );
}

export const scenarioName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be lowercase letters, digits and dashes');

export const scenario = z
  .object({
    name: scenarioName,
    description: z.string().min(1).max(1000),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional(),
    /** Another ready scenario whose rules come after these (so a scenario can keep the magic values). */
    extends: scenarioName.optional(),
    rules: z.array(scenarioRule).max(200),
  })
  .strict();

export type Scenario = z.infer<typeof scenario>;
export type ScenarioRule = z.infer<typeof scenarioRule>;
export type RuleEffect = z.infer<typeof ruleEffect>;

/** The scenario rule that fired for a request: the scenario's name and the rule's 0-based index in its rules. */
export interface FiredRule {
  name: string;
  rule: number;
}
