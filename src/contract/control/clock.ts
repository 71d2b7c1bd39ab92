import * as z from 'zod';
import { contract, deferred, lazy, reply } from '../kit.js';
import { isoDate } from '../wire.js';

// The one virtual clock every time-based rule reads.

export const advanceBody = deferred(() =>
  z.object({
    ms: z
      .number()
      .int()
      .min(1)
      .describe('how far to move the clock; it must not pass 9999-12-31T23:59:59.999Z, the end of its range'),
  }),
);

export const freezeBody = deferred(() => z.object({ frozen: z.boolean().default(true) }));

// What the routes answer.

export const clock = lazy('Clock', () =>
  z.strictObject({
    now: isoDate(),
    frozen: z.boolean(),
    offsetMs: z.number().describe('the clock minus real time'),
  }),
);
export type ClockView = z.infer<ReturnType<typeof clock>>;

const TAG = 'Clock';

export const getClockContract = contract({
  operationId: 'getClock',
  method: 'get',
  path: '/clock',
  summary: 'The virtual clock',
  description:
    'What the virtual clock reads now, whether it is frozen, and how far it was moved from the system clock.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: reply('Sandbox clock', clock) },
});

export const advanceClockContract = contract({
  operationId: 'advanceClock',
  method: 'post',
  path: '/clock/advance',
  summary: 'Advance the clock',
  description:
    'Token expiry, invitations, temporal virtual accounts, bulk item delays and webhook retries all read this clock. Runs everything that comes due inside the window in time order (retries scheduled inside it included), each piece of work until it is finished or waiting on the clock again, and answers once the clock has reached the target and nothing due is left. The clock is kept in the state and never runs backwards. Its range ends at 9999-12-31T23:59:59.999Z: an advance past it is refused, and a running clock that real time carries there stands still at it.',
  tag: TAG,
  auth: { scheme: 'none' },
  body: advanceBody,
  example: { ms: 3_600_000 },
  responses: {
    200: reply('Clock advanced by … ms', clock, '`Clock advanced by … ms`'),
    400: '`ms` is not a whole number of at least 1, or would move the clock past 9999-12-31T23:59:59.999Z, the end of its range; nothing moves',
  },
});

export const freezeClockContract = contract({
  operationId: 'freezeClock',
  method: 'post',
  path: '/clock/freeze',
  summary: 'Freeze or run the clock',
  description:
    '`{frozen: true}` stops the clock where it is (only an advance moves it then); `{frozen: false}` lets it run on from there.',
  tag: TAG,
  auth: { scheme: 'none' },
  body: freezeBody,
  example: { frozen: true },
  responses: { 200: reply('Clock frozen', clock, '`Clock frozen` or `Clock running`') },
});
