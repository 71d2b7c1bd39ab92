import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { lazy } from '../../http/route.js';
import { kobo } from '../../http/wire.js';
import { koboAmount } from '../transfers/schemas.js';

/** The list's filters (docs): each any text; `packageName`, `interval` and `amount` exact, `keyword` a part of any. */
export const subscriptionQuery = pageQuery.extend({
  packageName: text().optional().describe('the package’s name, exactly (case-insensitive)'),
  interval: text().optional().describe('`monthly`, `weekly`, `daily`, … exactly (case-insensitive)'),
  amount: text().optional().describe('kobo, exactly: `500000`'),
  keyword: text().optional().describe('a part of the package’s name, its interval or its amount'),
});
export type SubscriptionQuery = z.infer<typeof subscriptionQuery>;

/** A plan as the control API adds one: the fields of the bank's create-subscription page. */
export const newSubscriptionBody = z.object({
  packageName: text(),
  amount: koboAmount(0),
  interval: text().describe('`monthly`, `weekly`, `daily`, … (the docs do not fix the values)'),
});
export type NewSubscription = z.infer<typeof newSubscriptionBody>;

// What the routes answer.

/** A subscription plan, exactly as the docs show it: the amount is kobo as a string. */
export const subscription = lazy('Subscription', () =>
  z.strictObject({
    id: z.string(),
    packageName: z.string(),
    amount: kobo(),
    interval: z.string(),
    businessId: z.string(),
    clientId: z.string(),
  }),
);
export type SubscriptionView = z.infer<ReturnType<typeof subscription>>;
