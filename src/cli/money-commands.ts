import { newSubscriptionBody } from '../contract/api/subscriptions.js';
import { accountNumbersQuery, MAX_ACCOUNT_NUMBERS } from '../contract/control/account-numbers.js';
import { incomingPaymentBody } from '../contract/control/incoming-payments.js';
import { refundBody, reverseBody } from '../contract/control/reversals.js';
import { bodyFlags, requiredText } from './body-flags.js';
import type { Command, Options } from './command.js';

const payment = bodyFlags(incomingPaymentBody, {
  account: { field: 'accountNumber', name: '--account N' },
  amount: { min: 1 },
  narration: {},
  'payer-name': { field: 'accountName' },
  'refund-mispaid': { field: 'mispaid', sets: 'refund' },
});

const reversal = bodyFlags(reverseBody, { reason: {}, batch: { field: 'bulkTransferId' } });

const refund = bodyFlags(refundBody, { reason: {} });

const plan = bodyFlags(newSubscriptionBody, {
  package: { field: 'packageName', noBlank: true },
  amount: {},
  interval: { noBlank: true },
});

const accountNumbers = bodyFlags(accountNumbersQuery, {
  'bank-code': { name: '--bank-code CODE' },
  count: { min: 1, max: MAX_ACCOUNT_NUMBERS },
});

/**
 * The commands that move money or make what money moves through: incoming payments, reversals, refunds,
 * subscriptions, account numbers.
 */
export const moneyCommands = {
  pay: {
    usage: 'pay --account N --amount KOBO [--narration TEXT] [--payer-name NAME] [--refund-mispaid]',
    summary: 'money arrives on a virtual account',
    help: [
      'Credits a virtual account and sends its webhook (POST /__sandbox/incoming-payments).',
      '  --account N         the virtual account number (10 digits)',
      '  --amount KOBO       the amount in kobo',
      '  --narration TEXT    the narration of the payment',
      '  --payer-name NAME   the name of who pays',
      '  --refund-mispaid    a payment the account should not take is credited and refunded later (mispaid: refund)',
    ],
    get options(): Options {
      return payment.options;
    },
    run: async (sandbox, values) => {
      const paid = await sandbox.incomingPayment(payment.read(values));
      return {
        line: `Payment received: ${paid.transactionReference}, webhook delivery ${paid.deliveryId} (${paid.deliveryStatus})`,
        json: paid,
      };
    },
  },
  reverse: {
    usage: 'reverse --business ID --reference REF [--reason TEXT] [--batch ID]',
    summary: 'reverse a successful transfer',
    help: [
      'Reverses a successful transfer or completed bulk item: its amount and charge come back to the balance',
      '(POST /__sandbox/businesses/{id}/transfers/{ref}/reverse).',
      '  --business ID       the business',
      '  --reference REF     the transfer’s retrievalReference',
      '  --reason TEXT       why (the ledger shows it)',
      '  --batch ID          the batch, where items of several batches share the reference',
    ],
    get options(): Options {
      return { business: { type: 'string' }, reference: { type: 'string' }, ...reversal.options };
    },
    run: async (sandbox, values) => {
      const reversed = await sandbox.reverseTransfer(
        requiredText(values, 'business', { name: '--business ID' }),
        requiredText(values, 'reference', { name: '--reference REF' }),
        reversal.read(values),
      );
      return {
        line: `Transfer ${reversed.retrievalReference} reversed: ${reversed.totalAmount} kobo back (${reversed.reason})`,
        json: reversed,
      };
    },
  },
  refund: {
    usage: 'refund --payment REF [--reason TEXT]',
    summary: 'refund an incoming payment',
    help: [
      'Refunds an incoming payment now: what it credited is debited back',
      '(POST /__sandbox/incoming-payments/{ref}/refund).',
      '  --payment REF       the payment’s transactionReference',
      '  --reason TEXT       why (the ledger shows it)',
    ],
    get options(): Options {
      return { payment: { type: 'string' }, ...refund.options };
    },
    run: async (sandbox, values) => {
      const refunded = await sandbox.refundPayment(
        requiredText(values, 'payment', { name: '--payment REF' }),
        refund.read(values),
      );
      return {
        line: `Payment ${refunded.transactionReference} refunded: ${refunded.amount} kobo (${refunded.refundReference})`,
        json: refunded,
      };
    },
  },
  subscription: {
    usage: 'subscription --business ID --package NAME --amount KOBO --interval TEXT',
    summary: 'add a subscription plan to a business',
    help: [
      'Adds a plan that GET /api/v1/clients/business/subscriptions lists (POST /__sandbox/businesses/{id}/subscriptions).',
      '  --business ID       the business',
      '  --package NAME      the package name, e.g. "Pro Plan"',
      '  --amount KOBO       the amount in kobo',
      '  --interval TEXT     e.g. monthly, weekly, daily',
    ],
    get options(): Options {
      return { business: { type: 'string' }, ...plan.options };
    },
    run: async (sandbox, values) => {
      const added = await sandbox.addSubscription(
        requiredText(values, 'business', { noBlank: true }),
        plan.read(values),
      );
      return {
        line: `Subscription ${added.id} added: ${added.packageName}, ${added.amount} kobo ${added.interval}`,
        json: added,
      };
    },
  },
  'account-numbers': {
    usage: 'account-numbers --bank-code CODE [--count N]',
    summary: 'valid receiver account numbers of a bank, one a line',
    help: [
      'Prints account numbers whose NUBAN check digit is right for the bank, one a line, for the receivers of an',
      "app's transfers (GET /__sandbox/account-numbers). The first of the bank's sequence: the same every run.",
      "  --bank-code CODE    a bank code of the sandbox's list (3 or 6 digits), e.g. 058",
      `  --count N           how many, 1 to ${MAX_ACCOUNT_NUMBERS} (default 1)`,
    ],
    get options(): Options {
      return accountNumbers.options;
    },
    run: async (sandbox, values) => {
      // One when not asked, as the query's default: the call the command always made.
      const { bankCode, count = 1 } = accountNumbers.read(values);
      const numbers = await sandbox.accountNumbers(bankCode, count);
      return { line: numbers.join('\n'), json: { bankCode, accountNumbers: numbers } };
    },
  },
} satisfies Record<string, Command>;
