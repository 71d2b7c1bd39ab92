import * as z from 'zod';
import { idText, MAX_TEXT, text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';
import { isoDate, kobo } from '../../http/wire.js';

/** All three required (docs): `countryId` is any country id (`NG`), `isNewBusiness` a JSON boolean. */
export const createBusinessBody = z.object({
  businessName: text(),
  countryId: text(),
  isNewBusiness: z.boolean(),
});

export const MAX_DOCUMENTS = 5;

/** The text fields of the registration form, which the service validates. */
export const registrationFields = z.object({
  businessId: idText(),
  bvn: z.string().regex(/^\d{11}$/, 'must be 11 digits'),
  residentialAddress: text(),
  stateId: text(),
  // Any text: one that is not the OTP sent (or `123456`) is refused by the service as `Invalid OTP`.
  otp: text(),
  password: z.string().min(1).max(MAX_TEXT),
});

/** The registration form as documented: the fields, and the files the service reads beside them. */
export const registrationForm = registrationFields.extend({
  photoId: z.file().mime(['image/jpeg', 'image/png']).describe('JPEG or PNG, judged by its bytes'),
  businessDocuments: z
    .array(z.file())
    .max(MAX_DOCUMENTS)
    .optional()
    .describe('up to five files; repeat the field'),
});

// What the routes answer.

export const business = lazy('Business', () =>
  z.strictObject({
    id: z.string(),
    businessName: z.string(),
    bvn: z.string(),
    photoIdUrl: z.string(),
    businessDocumentsUrls: z.array(z.string()),
    isApproved: z.boolean(),
    residentialAddress: z.string(),
    stateId: z.string(),
    state: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
    clientId: z.string(),
  }),
);
export type BusinessView = z.infer<ReturnType<typeof business>>;

export const accountDetails = lazy('AccountDetails', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountType: z.string(),
    customerId: z.string(),
    businessId: z.string(),
    accountBalance: kobo(),
  }),
);
export type AccountDetailsView = z.infer<ReturnType<typeof accountDetails>>;

export const createdBusiness = lazy('CreatedBusiness', () =>
  z.strictObject({ business: z.strictObject({ id: z.string(), businessName: z.string() }) }),
);
export type CreatedBusinessView = z.infer<ReturnType<typeof createdBusiness>>;

export const customer = lazy('Customer', () =>
  z.strictObject({
    id: z.string(),
    name: z.string(),
    phoneNo: z.string(),
    email: z.string(),
    dateCreated: isoDate(),
    nuban: z.string(),
  }),
);
export type CustomerView = z.infer<ReturnType<typeof customer>>;
