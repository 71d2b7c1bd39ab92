import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// The one virtual clock every time-based rule reads.

export const advanceBody = z.object({
  ms: z
    .number()
    .int()
    .min(1)
    .describe('how far to move the clock; it must not pass 9999-12-31T23:59:59.999Z, the end of its range'),
});

export const freezeBody = z.object({ frozen: z.boolean().default(true) });

// What the routes answer.

export const clock = lazy('Clock', () =>
  z.strictObject({
    now: isoDate(),
    frozen: z.boolean(),
    offsetMs: z.number().describe('the clock minus real time'),
  }),
);
export type ClockView = z.infer<ReturnType<typeof clock>>;
