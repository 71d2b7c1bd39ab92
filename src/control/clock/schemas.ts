import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// The one virtual clock every time-based rule reads.

export const advanceBody = z.object({
  ms: z
    .number()
    .int()
    .min(1)
    .describe('how far to move the clock; the clock must stay inside the range of a Date (±8.64e15 ms)'),
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
