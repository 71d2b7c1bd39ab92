import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { disputeRecord } from '../../store/records.js';

// A dispute, decided by the bank's side.

/** As the bank's API shows it: the record without its `businessId`. */
export const dispute = lazy('Dispute', () => z.strictObject(disputeRecord.shape).omit({ businessId: true }));
export type DisputeView = z.infer<ReturnType<typeof dispute>>;
