import * as z from 'zod';
import { contract, deferred, lazy, reply } from '../kit.js';

// What a tester needs to make up: account numbers an app's NUBAN check accepts, for the receivers of its transfers.

/** The most account numbers one call answers: enough for a batch's receivers, small enough to read. */
export const MAX_ACCOUNT_NUMBERS = 100;

export const accountNumbersQuery = deferred(() =>
  z.object({
    // Bank codes are data (the fixtures' list), not schema: any 3- or 6-digit code is well formed, and the service
    // answers one the sandbox does not list as transfers do.
    bankCode: z
      .string()
      .regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code')
      .meta({
        description:
          'a CBN/NIP bank code of the sandbox’s bank list (`fixtures/banks.json`, or the `--fixtures` folder’s): the code transfers take as `receiverBankCode`',
        examples: ['058', '044', '090267'],
      }),
    count: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_ACCOUNT_NUMBERS)
      .default(1)
      .describe(`how many, 1 to ${MAX_ACCOUNT_NUMBERS} (default 1)`),
  }),
);
export type AccountNumbersQuery = z.infer<ReturnType<typeof accountNumbersQuery>>;

// What the route answers.

export const accountNumbers = lazy('AccountNumbers', () =>
  z.strictObject({
    bankCode: z.string(),
    bankName: z.string().describe('as the bank list names it'),
    accountNumbers: z
      .array(z.string())
      .describe(
        '10-digit NUBANs whose check digit is right for the bank, all different, none starting with 0 (so never a magic receiver such as `0000000051`): the first `count` of the bank’s sequence, the same in every sandbox and run',
      ),
  }),
);
export type AccountNumbersView = z.infer<ReturnType<typeof accountNumbers>>;

export const accountNumbersContract = contract({
  operationId: 'accountNumbers',
  method: 'get',
  path: '/account-numbers',
  summary: 'Valid account numbers of a bank',
  description: `Receiver account numbers an app under test can send transfers to: each passes the CBN NUBAN check digit for the bank, so neither the app's own check nor the sandbox's \`x-sandbox-warning\` objects, and a transfer to one goes through (unless a scenario says otherwise). Deterministic: the first \`count\` numbers of the bank's sequence, the same in every sandbox, run and seed, so a test or a fixture file may write them down; ask for more to get more distinct ones (at most ${MAX_ACCOUNT_NUMBERS}). Made up, as a receiver at another bank is: a transfer credits no account of the sandbox.`,
  tag: 'Test data',
  auth: { scheme: 'none' },
  query: accountNumbersQuery,
  responses: {
    200: reply('Account numbers', accountNumbers),
    400: [
      '`bankCode is invalid: must be a 3- or 6-digit bank code`',
      '`Invalid bank code: "…" is not in this sandbox’s bank list`: a well-formed code the fixtures do not list, which transfers refuse too',
      `\`count is invalid: …\`: not a whole number from 1 to ${MAX_ACCOUNT_NUMBERS}`,
    ],
  },
});
