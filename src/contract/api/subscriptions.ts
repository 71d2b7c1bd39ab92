import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { contract, deferred, done, lazy, page } from '../kit.js';
import { kobo } from '../wire.js';
import { koboAmount } from './transfers.js';

/** The list's filters (docs): each any text; `packageName`, `interval` and `amount` exact, `keyword` a part of any. */
export const subscriptionQuery = deferred(() =>
  pageQuery.extend({
    packageName: text().optional().describe('the package’s name, exactly (case-insensitive)'),
    interval: text().optional().describe('`monthly`, `weekly`, `daily`, … exactly (case-insensitive)'),
    amount: text().optional().describe('kobo, exactly: `500000`'),
    keyword: text().optional().describe('a part of the package’s name, its interval or its amount'),
  }),
);
export type SubscriptionQuery = z.infer<ReturnType<typeof subscriptionQuery>>;

/**
 * A plan as the bank's create-subscription page sends it: `amount` required (kobo, a string of digits or a JSON
 * integer, listed as a string), `packageName` and `interval` any text, each optional (the page marks only
 * `amount` required; a plan without them lists them as `""`).
 */
export const createSubscriptionBody = deferred(() =>
  z.object({
    amount: koboAmount(0),
    packageName: text().optional().describe('a name for the package: `Pro Plan`'),
    interval: text()
      .optional()
      .describe('any text: the docs give `monthly`, `weekly` and `daily` as examples and fix no values'),
  }),
);
export type CreateSubscriptionInput = z.infer<ReturnType<typeof createSubscriptionBody>>;

/** A plan as the control API adds one: the fields of the bank's create-subscription page. */
export const newSubscriptionBody = deferred(() =>
  z.object({
    packageName: text(),
    amount: koboAmount(0),
    interval: text().describe('`monthly`, `weekly`, `daily`, … (the docs do not fix the values)'),
  }),
);
export type NewSubscription = z.infer<ReturnType<typeof newSubscriptionBody>>;

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

export const listSubscriptionsContract = contract({
  operationId: 'listSubscriptions',
  method: 'get',
  path: '/clients/business/subscriptions',
  summary: 'List subscriptions',
  description:
    'The business’s subscription plans, filtered by `packageName`, `interval`, `amount` (each exact, case-insensitive) and a `keyword` found in any of them. The fixtures give the approved businesses some; add more with `POST /__sandbox/businesses/{id}/subscriptions`.',
  tag: 'Subscriptions',
  auth: { scheme: 'A', business: 'header', area: 'business' },
  source: {
    docs: ['/api-reference/subscriptions/list'],
    sandbox: 'the order (as made) and how the filters compare',
  },
  query: subscriptionQuery,
  responses: { 200: page('Subscriptions retrieved successfully', subscription, 'A page of plans') },
});

export const createSubscriptionContract = contract({
  operationId: 'createSubscription',
  method: 'post',
  path: '/clients/business/subscriptions',
  summary: 'Create a subscription',
  description:
    'A plan of the business the `businessId` header names; the answer carries no data, as the docs show: the plan is in the list, with its `id` and `clientId`.',
  tag: 'Subscriptions',
  auth: { scheme: 'A', business: 'header', area: 'business' },
  source: {
    docs: ['/api-reference/subscriptions/create'],
    sandbox:
      'no rule on `interval` (the docs’ values are examples); `packageName` and `interval` optional, as the page marks them',
  },
  body: createSubscriptionBody,
  example: { amount: '500000', packageName: 'Pro Plan', interval: 'monthly' },
  responses: { 201: done('Subscription created successfully') },
});
