import * as z from 'zod';
import { idText, MAX_TEXT, text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { accountRecord, businessRecord, customerRecord } from '../../domain/records.js';
import { fixture, NO_PAYMENT_ACCOUNT_CAUSE } from '../examples.js';
import { type BodySettings, contract, deferred, done, lazy, page, reply } from '../kit.js';
import { isoDate, kobo } from '../wire.js';

/** All three required (docs): `countryId` is any country id (`NG`), `isNewBusiness` a JSON boolean. */
export const createBusinessBody = deferred(() =>
  z.object({
    businessName: text(),
    countryId: text(),
    isNewBusiness: z.boolean(),
  }),
);

export const MAX_DOCUMENTS = 5;

/**
 * The bound on a whole registration form: a photo and up to five documents. Each file is checked against the
 * upload limit on its own, so this only bounds the whole form.
 */
export const registrationBodyLimit = (settings: Pick<BodySettings, 'uploadLimit'>) => ({
  bytes: (MAX_DOCUMENTS + 1) * settings.uploadLimit + 65_536,
});

/** Both required (docs): the 11-digit BVN, and the business it is validated for (one of the client's). */
export const validateBvnBody = deferred(() =>
  z.object({
    bvn: z.string().regex(/^\d{11}$/, 'must be 11 digits'),
    businessId: idText(),
  }),
);

/** The text fields of the registration form, which the service validates. */
export const registrationFields = deferred(() =>
  z.object({
    businessId: idText(),
    bvn: z.string().regex(/^\d{11}$/, 'must be 11 digits'),
    residentialAddress: text(),
    stateId: text(),
    // Any text: one that is not the OTP sent (or `123456`) is refused by the service as `Invalid OTP`.
    otp: text(),
    password: z.string().min(1).max(MAX_TEXT),
  }),
);

/** The registration form as documented: the fields, and the files the service reads beside them. */
export const registrationForm = deferred(() =>
  registrationFields().extend({
    photoId: z.file().mime(['image/jpeg', 'image/png']).describe('JPEG or PNG, judged by its bytes'),
    businessDocuments: z
      .array(z.file())
      .max(MAX_DOCUMENTS)
      .optional()
      .describe('up to five files; repeat the field'),
  }),
);

// What the routes answer.

/** The fields of a business the API shows as they are kept, in its order; `state` and `clientId` follow them. */
export const businessFields = {
  id: true,
  businessName: true,
  bvn: true,
  photoIdUrl: true,
  businessDocumentsUrls: true,
  isApproved: true,
  residentialAddress: true,
  stateId: true,
} as const;

export const business = lazy('Business', () =>
  businessRecord
    .pick(businessFields)
    .extend({
      state: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
      // After `state`, as the spec shows it, where a pick would put it before.
      clientId: businessRecord.shape.clientId,
    })
    .strict(),
);
export type BusinessView = z.infer<ReturnType<typeof business>>;

/** The BVN's holder, exactly as the docs show it: all text. */
export const bvnIdentity = lazy('BvnIdentity', () =>
  z.strictObject({
    phoneNumber: z.string(),
    bvn: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    otherNames: z.string(),
    dob: z.string().describe('date of birth, `YYYY-MM-DD`'),
  }),
);
export type BvnIdentityView = z.infer<ReturnType<typeof bvnIdentity>>;

/** The fields of a payment account the API shows, in its order: all of them. */
export const accountFields = { accountNumber: true, accountType: true, customerId: true } as const;

export const accountDetails = lazy('AccountDetails', () =>
  accountRecord.pick(accountFields).extend({ businessId: z.string(), accountBalance: kobo() }).strict(),
);
export type AccountDetailsView = z.infer<ReturnType<typeof accountDetails>>;

/** The fields of a business the answer to its creation shows. */
export const createdBusinessFields = { id: true, businessName: true } as const;

export const createdBusiness = lazy('CreatedBusiness', () =>
  z.strictObject({ business: businessRecord.pick(createdBusinessFields).strict() }),
);
export type CreatedBusinessView = z.infer<ReturnType<typeof createdBusiness>>;

/** The fields of a customer the API shows, in its order: not its business. */
export const customerFields = {
  id: true,
  name: true,
  phoneNo: true,
  email: true,
  dateCreated: true,
  nuban: true,
} as const;

export const customer = lazy('Customer', () =>
  customerRecord.pick(customerFields).extend({ dateCreated: isoDate() }).strict(),
);
export type CustomerView = z.infer<ReturnType<typeof customer>>;

const BUSINESS = '/clients/business';

const TAG = 'Business';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

export const getBusinessDetailsContract = contract({
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
});

export const getAccountDetailsContract = contract({
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
});

export const listCustomersContract = contract({
  operationId: 'listCustomers',
  method: 'get',
  path: `${BUSINESS}/customers`,
  summary: 'List customers',
  tag: TAG,
  auth: withBusiness,
  source: { spec: 'List customers', docs: ['/api-reference/business/customers'] },
  query: pageQuery,
  responses: { 200: page('Customers retrieved successfully', customer, 'A page of customers') },
});

export const listBusinessesContract = contract({
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
});

export const createBusinessContract = contract({
  operationId: 'createBusiness',
  method: 'post',
  path: BUSINESS,
  summary: 'Create a business',
  description:
    'With `Authorization` and `SECRET_KEY` only: a client with no business yet has no `businessId` to send (one sent anyway is ignored). The business is not approved, has no payment account and a balance of 0. Next: validate a BVN for it (which sends the registration OTP), then complete its registration.',
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
});

export const validateBvnContract = contract({
  operationId: 'validateBvn',
  method: 'post',
  path: `${BUSINESS}/validate-bvn`,
  summary: 'Validate a BVN',
  description:
    'With `Authorization` and `SECRET_KEY` only; `businessId` in the body names one of the client’s businesses. Answers the BVN’s holder: from `fixtures/bvns.json` where the BVN is listed (the docs’ example `12345678901` is), otherwise a person drawn from the seed and the BVN (the same BVN always gives the same person). The registration OTP is sent at this step (a `bvn_otp` message in `GET /__sandbox/outbox`); `123456` works too. The BVN `00000000000` is in no register: 400 `BVN not found`.',
  tag: TAG,
  auth: { scheme: 'A', business: 'none', area: 'business' },
  source: {
    docs: ['/api-reference/business/validate-bvn', '/api-reference/business/complete-registration'],
    sandbox: 'the identities (a table, else drawn from the seed); the magic BVN `00000000000`',
  },
  body: validateBvnBody,
  example: { bvn: '12345678901', businessId: fixture.a2 },
  responses: {
    200: reply('BVN validated successfully', bvnIdentity, 'The BVN’s holder'),
    400: '`BVN not found`: the BVN `00000000000`',
    404: '`Business not found` (unknown, or another client’s)',
  },
});

export const completeBusinessRegistrationContract = contract({
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
  // `photoId` is a file, which an example can only name: a tool that sends the example's text for it is answered
  // 400 `photoId is required: one JPEG or PNG file`.
  example: {
    businessId: fixture.a2,
    bvn: '12345678901',
    residentialAddress: '12 Marina Street, Lagos',
    stateId: 'state_01',
    otp: '123456',
    password: fixture.owner.password,
    photoId: '(a JPEG or PNG file: the photo of an ID)',
  },
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
});
