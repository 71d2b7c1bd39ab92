import * as z from 'zod';

// What a scenario rule matches on beyond what an event plainly is: a pattern, a calendar (`between`), a count or an
// amount in a sliding window (`over`), and the parts of a request (`header`, `query`, `body`).

/** A regular expression given as a string; refused at load time if it does not compile. */
export const pattern = z
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

/** A daily time in Lagos (`HH:MM`, 00:00 to 23:59). */
export const DAILY_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** An ISO 8601 instant with its offset (`2026-12-01T10:00:00Z`, `…+01:00`), seconds and milliseconds optional. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The longest window `match.over` counts in: 30 days. */
export const MAX_WINDOW_MS = 2_592_000_000;

/** Which a `between` bound is: a daily Lagos time, an instant (ms since the epoch), or neither. */
export function readBound(text: string): { daily: number } | { instant: number } | null {
  const daily = DAILY_TIME.exec(text);
  if (daily) return { daily: Number(daily[1]) * 60 + Number(daily[2]) };
  if (!ISO_INSTANT.test(text)) return null;
  const instant = Date.parse(text);
  return Number.isNaN(instant) ? null : { instant };
}

/**
 * `match.between`: the rule applies while the sandbox clock is in [from, to). Both ISO instants, or both daily
 * times in Lagos (UTC+1, no daylight saving), where a `to` before `from` spans midnight.
 */
export const between = z
  .object({ from: z.string().max(40), to: z.string().max(40) })
  .strict()
  .superRefine(({ from, to }, ctx) => {
    const kind =
      'must be an ISO 8601 instant with its offset (2026-12-01T10:00:00Z) or a daily time HH:MM in Lagos';
    const a = readBound(from);
    const b = readBound(to);
    if (!a) ctx.addIssue({ code: 'custom', path: ['from'], message: kind });
    if (!b) ctx.addIssue({ code: 'custom', path: ['to'], message: kind });
    if (!a || !b) return;
    if ('daily' in a !== 'daily' in b) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'must be of the same kind as from: both instants, or both daily times',
      });
      return;
    }
    const start = 'daily' in a ? a.daily : a.instant;
    const end = 'daily' in b ? b.daily : b.instant;
    if (start === end) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must differ from from' });
    else if ('instant' in a && end < start)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: 'must come after from (daily times may span midnight, instants may not)',
      });
  });

/**
 * `match.over`: the rule applies only once, within the `windowMs` that ends at the event (on the sandbox clock), the
 * earlier matching events of the same `per` number `count` or more, or the `amount`s of the earlier matching
 * transfers that succeeded, plus this one's, exceed `amount` (kobo).
 */
export const over = z
  .object({
    count: z.number().int().min(1).max(1_000_000).optional(),
    amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    windowMs: z.number().int().min(1).max(MAX_WINDOW_MS),
    per: z.enum(['client', 'business', 'sandbox']).optional(),
  })
  .strict()
  .refine((o) => o.count !== undefined || o.amount !== undefined, {
    message: 'needs count, amount or both',
  });
export type Over = z.infer<typeof over>;

/** A dotted path into a JSON body (`transfers.1.amount`), as templates name one. */
export const bodyPath = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^.]+(\.[^.]+)*$/, 'must be a dotted path (transfers.0.amount)');

/** The most names `match.header`, `match.query` or `match.body` may give. */
const MAX_NAMED = 16;
export const named = <K extends z.ZodType<string>>(key: K) =>
  z
    .record(key, pattern)
    .refine((record) => Object.keys(record).length <= MAX_NAMED, { message: `at most ${MAX_NAMED} names` })
    .optional();
