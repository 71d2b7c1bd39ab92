import { ApiError } from '../../domain/errors.js';
import { pageQuery } from '../../domain/pagination.js';
import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, page, reply } from '../../http/route.js';
import { NO_PAYMENT_ACCOUNT_CAUSE } from '../examples.js';
import { completeRegistration, registrationBodyLimit } from './registration.js';
import {
  accountDetails,
  business,
  createBusinessBody,
  createdBusiness,
  customer,
  registrationForm,
} from './schemas.js';
import { accountDetailsOf, businessView, createBusiness, listBusinesses, listCustomers } from './service.js';

const BUSINESS = '/clients/business';
const TAG = 'Business';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

/** `/clients/business`: the client's businesses, their registration, account details and customers. */
export const businessRoutes: Route[] = [
  defineRoute({
    operationId: 'getBusinessDetails',
    method: 'get',
    path: `${BUSINESS}/details`,
    summary: 'Get business details',
    description: 'The business the `businessId` header names, with the spec’s Business fields.',
    tag: TAG,
    auth: withBusiness,
    source: { spec: 'Business', docs: ['/api-reference/business/details'] },
    responses: {
      200: reply('Business details retrieved successfully', business, 'The business'),
    },
    handle: ({ deps, business }) => ({ data: businessView(deps, business) }),
  }),
  defineRoute({
    operationId: 'getAccountDetails',
    method: 'get',
    path: `${BUSINESS}/account-details`,
    summary: 'Get account details',
    tag: TAG,
    auth: withBusiness,
    source: {
      spec: 'Get account details',
      docs: ['/api-reference/business/account-details'],
      sandbox: 'no account before approval: 400',
    },
    responses: {
      200: reply('Account details retrieved successfully', accountDetails, 'The business’s payment account'),
      400: NO_PAYMENT_ACCOUNT_CAUSE,
    },
    handle: ({ business }) => ({ data: accountDetailsOf(business) }),
  }),
  defineRoute({
    operationId: 'listCustomers',
    method: 'get',
    path: `${BUSINESS}/customers`,
    summary: 'List customers',
    tag: TAG,
    auth: withBusiness,
    source: { spec: 'List customers', docs: ['/api-reference/business/customers'] },
    query: pageQuery,
    responses: { 200: page('Customers retrieved successfully', customer, 'A page of customers') },
    handle: ({ deps, business, query }) => ({ page: listCustomers(deps, business, query) }),
  }),
  defineRoute({
    operationId: 'listBusinesses',
    method: 'get',
    path: BUSINESS,
    summary: 'List businesses',
    description: 'Every business of the client, whichever of them `businessId` names.',
    tag: TAG,
    auth: withBusiness,
    source: { spec: 'List businesses', docs: ['/api-reference/business/list'] },
    query: pageQuery,
    responses: {
      200: page('Businesses retrieved successfully', business, 'A page of the client’s businesses'),
    },
    handle: ({ deps, caller, query }) => ({ page: listBusinesses(deps, caller.client, query) }),
  }),
  defineRoute({
    operationId: 'createBusiness',
    method: 'post',
    path: BUSINESS,
    summary: 'Create a business',
    description:
      'With `Authorization` and `SECRET_KEY` only: a client with no business yet has no `businessId` to send (one sent anyway is ignored). The business is not approved, has no payment account and a balance of 0. Its BVN one-time password lands in `GET /__sandbox/outbox`.',
    tag: TAG,
    auth: { scheme: 'A', business: 'none', area: 'business' },
    source: {
      docs: ['/api-reference/business/create'],
      sandbox: 'the same name twice in one client: 409',
    },
    body: createBusinessBody,
    example: { businessName: 'Adebayo Farms', countryId: 'NG', isNewBusiness: true },
    responses: {
      201: reply('Business created successfully', createdBusiness),
      409: '`A business with this name already exists`',
    },
    handle: async ({ deps, caller, actor, body }) => ({
      status: 201,
      data: await createBusiness(deps, actor(), caller.client, body),
    }),
  }),
  defineRoute({
    operationId: 'completeBusinessRegistration',
    method: 'patch',
    path: `${BUSINESS}/complete-registration`,
    summary: 'Complete business registration',
    description:
      'KYC as `multipart/form-data`; the business is the `businessId` form field, not a header. The OTP `123456` always works. The business stays unapproved until `POST /__sandbox/businesses/{id}/approve`.',
    tag: TAG,
    // The form names the business, not a header.
    auth: { scheme: 'A', business: 'form', area: 'business' },
    source: {
      spec: 'Complete business registration',
      docs: ['/api-reference/business/complete-registration'],
      sandbox: 'the OTP `123456`; the file limits; approval through the control API',
    },
    form: registrationForm,
    bodyLimit: registrationBodyLimit,
    responses: {
      200: done('Business registration completed successfully'),
      400: [
        'A field is missing or invalid (`errors` names it)',
        '`Malformed multipart body`',
        '`Invalid stateId`, `Invalid OTP`, `Invalid password`',
        '`photoId must be a JPEG or PNG image`, more than five `businessDocuments`',
        '`Business is already approved`',
      ],
      404: '`Business not found` (unknown, or another client’s)',
      413: 'A file over `--upload-limit` bytes, or the whole form over its limit',
      415: '`Content-Type must be multipart/form-data`',
    },
    handle: async ({ deps, c, caller, actor, body }) => {
      const { user } = caller;
      if (!user) throw new ApiError(401, 'Authorization token is required');
      await completeRegistration(deps, actor(), user, body, new URL(c.req.url).origin);
      return DONE;
    },
  }),
];
