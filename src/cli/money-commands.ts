import { MAX_ACCOUNT_NUMBERS } from '../contract/control/account-numbers.js';
import { type Command, UsageError, wholeNumber } from './command.js';

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
    options: {
      account: { type: 'string' },
      amount: { type: 'string' },
      narration: { type: 'string' },
      'payer-name': { type: 'string' },
      'refund-mispaid': { type: 'boolean' },
    },
    run: async (sandbox, values) => {
      if (typeof values.account !== 'string') throw new UsageError('--account N is required');
      const amount = wholeNumber(values.amount as string | undefined, '--amount', 1);
      const paid = await sandbox.incomingPayment({
        accountNumber: values.account,
        amount,
        ...(typeof values.narration === 'string' ? { narration: values.narration } : {}),
        ...(typeof values['payer-name'] === 'string' ? { accountName: values['payer-name'] } : {}),
        ...(values['refund-mispaid'] === true ? { mispaid: 'refund' as const } : {}),
      });
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
    options: {
      business: { type: 'string' },
      reference: { type: 'string' },
      reason: { type: 'string' },
      batch: { type: 'string' },
    },
    run: async (sandbox, values) => {
      if (typeof values.business !== 'string') throw new UsageError('--business ID is required');
      if (typeof values.reference !== 'string') throw new UsageError('--reference REF is required');
      const reversed = await sandbox.reverseTransfer(values.business, values.reference, {
        ...(typeof values.reason === 'string' ? { reason: values.reason } : {}),
        ...(typeof values.batch === 'string' ? { bulkTransferId: values.batch } : {}),
      });
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
    options: { payment: { type: 'string' }, reason: { type: 'string' } },
    run: async (sandbox, values) => {
      if (typeof values.payment !== 'string') throw new UsageError('--payment REF is required');
      const refunded = await sandbox.refundPayment(
        values.payment,
        typeof values.reason === 'string' ? { reason: values.reason } : {},
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
    options: {
      business: { type: 'string' },
      package: { type: 'string' },
      amount: { type: 'string' },
      interval: { type: 'string' },
    },
    run: async (sandbox, values) => {
      const text = (name: string) => {
        const value = values[name];
        if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
        return value;
      };
      const plan = await sandbox.addSubscription(text('business'), {
        packageName: text('package'),
        amount: wholeNumber(values.amount as string | undefined, '--amount'),
        interval: text('interval'),
      });
      return {
        line: `Subscription ${plan.id} added: ${plan.packageName}, ${plan.amount} kobo ${plan.interval}`,
        json: plan,
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
    options: { 'bank-code': { type: 'string' }, count: { type: 'string' } },
    run: async (sandbox, values) => {
      const bankCode = values['bank-code'];
      if (typeof bankCode !== 'string') throw new UsageError('--bank-code CODE is required');
      const count =
        values.count === undefined
          ? 1
          : wholeNumber(values.count as string, '--count', 1, MAX_ACCOUNT_NUMBERS);
      const numbers = await sandbox.accountNumbers(bankCode, count);
      return { line: numbers.join('\n'), json: { bankCode, accountNumbers: numbers } };
    },
  },
} satisfies Record<string, Command>;
