import * as z from 'zod';
import { canonicalId } from '../domain/ids.js';

/** A regular expression given as a string; refused at load time if it does not compile. */
const pattern = z
  .string()
  .min(1)
  .max(200)
  .refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, 'must be a valid regular expression');

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
  })
  .strict();

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
    /** Answer an HTTP route with this status and message, before its handler runs. */
    http: z
      .object({ status: z.number().int().min(400).max(599), message: z.string().min(1).max(200) })
      .strict()
      .optional(),
    /** What happens to a webhook delivery attempt. */
    webhook: z.enum(['drop', 'duplicate', 'refuse']).optional(),
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
    'an effect needs at least one of fail, delayMs, hold, http, webhook, status',
  );

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
      transfer: ['fail', 'delayMs'],
      'bulk.item': ['fail', 'delayMs', 'hold'],
      webhook: ['webhook', 'delayMs'],
      http: ['http', 'delayMs'],
      error: ['status'],
    };
    for (const key of Object.keys(effect) as (keyof typeof effect)[]) {
      if (!allowed[on].includes(key)) {
        ctx.addIssue({ code: 'custom', path: ['effect', key], message: `does not apply to "${on}" rules` });
      }
    }
    if (rule.match.drawBy === 'reference' && on !== 'transfer' && on !== 'bulk.item') {
      ctx.addIssue({
        code: 'custom',
        path: ['match', 'drawBy'],
        message: `"reference" applies to transfer and bulk.item rules only, not to "${on}" rules`,
      });
    }
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
