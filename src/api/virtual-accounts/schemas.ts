import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { virtualAccountType } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

export const virtualAccountBody = z.object({
  firstName: text(),
  lastName: text(),
  type: virtualAccountType,
  reference: text(),
});
export type VirtualAccountInput = z.infer<typeof virtualAccountBody>;

// What the route answers.

export const virtualAccount = lazy('VirtualAccount', () =>
  z.strictObject({
    accountNumber: z.string(),
    accountName: z.string(),
    clientRef: z.string(),
    systemRef: z.string(),
    type: virtualAccountType,
    expiresAt: isoDate().nullable().describe('temporal accounts only'),
  }),
);
export type VirtualAccountView = z.infer<ReturnType<typeof virtualAccount>>;
