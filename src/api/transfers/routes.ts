import type { Context } from 'hono';
import type { Deps } from '../../deps.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { AppEnv } from '../../http/env.js';
import type { Route } from '../../http/route.js';
import { defineRoute, reply } from '../../http/route.js';
import { chosenScenario } from '../../http/scenario.js';
import { warn } from '../../http/warnings.js';
import { NO_PAYMENT_ACCOUNT_CAUSE, PROVIDER_OUTAGE_CAUSE, transferExample } from '../examples.js';
import { type TransferInput, transferBody, transferResult } from './schemas.js';
import { sendTransfer, type TransferOptions } from './service.js';

const FUNDS = '/clients/business/customers/funds';
const TAG = 'Transfers';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

/** The customer and the anonymous transfer take the same body and answer alike; only the ledger kind differs. */
const responses = {
  200: reply('Transfer successful', transferResult),
  400: [
    '`Invalid bank code`',
    NO_PAYMENT_ACCOUNT_CAUSE,
    "A failed transfer: the provider's message (`Insufficient Funds`; the magic receiver accounts `0000000051`, `0000000007`, `0000000091`, `0000000096`), `data: null`; nothing is debited. Its `errorCode` and references are on its ledger entry (`GET /__sandbox/businesses/{id}/ledger?retrievalReference=…`)",
  ],
  409: '`Duplicate retrievalReference: it was used for a different transfer`',
  503: PROVIDER_OUTAGE_CAUSE,
} as const;

/** What production refuses in a transfer the sandbox accepts. */
export const RECEIVER_ACCOUNT_WARNING =
  'a `receiverAccountNumber` whose NUBAN check digit is wrong for `receiverBankCode`: production would not find the account and the transfer would fail';

/** Warns of a receiver account that cannot exist. */
const warnOfReceiver = (c: Parameters<typeof warn>[0], body: TransferInput) =>
  warn(
    c,
    nubanWarning(
      'receiverAccountNumber',
      body.receiverAccountNumber,
      body.receiverBankCode,
      'production would not find this account and the transfer would fail',
    ),
  );

/** What the request says of a transfer besides its body: its chosen scenario, where the rule that fired goes, its id. */
const requestOf = (c: Context<AppEnv>, deps: Pick<Deps, 'scenarios'>): TransferOptions => ({
  scenario: chosenScenario(c, deps),
  fired: (rule) => {
    c.env.facts.scenario = rule;
  },
  requestId: c.env.facts.requestId,
});

/** `/clients/business/customers/funds`: single transfers (bulk transfers live beside them). */
export const transferRoutes: Route[] = [
  defineRoute({
    operationId: 'transfer',
    method: 'post',
    path: `${FUNDS}/transfer`,
    summary: 'Transfer funds',
    description:
      'Debits `amount + transactionCharge` (the NIP fee tier). `retrievalReference` is the idempotency key per business, shared with the anonymous transfer: the same body again answers the first response and debits nothing more. The answer is exactly the docs’ three amounts; the transfer’s `transactionReference` (a dispute’s `transactionId`) is on its ledger entry under `/__sandbox`.',
    tag: TAG,
    auth: withBusiness,
    source: {
      spec: 'Customer funds transfer',
      docs: ['/api-reference/funds/customer-transfer'],
      sandbox:
        'the fee tiers, the idempotency of `retrievalReference` (409 for another body), the magic accounts',
    },
    body: transferBody,
    example: transferExample,
    warns: [RECEIVER_ACCOUNT_WARNING],
    responses,
    handle: async ({ deps, c, actor, business, body }) => {
      warnOfReceiver(c, body);
      return {
        data: await sendTransfer(deps, actor(), business, body, 'transfer', requestOf(c, deps)),
      };
    },
  }),
  defineRoute({
    operationId: 'anonymousTransfer',
    method: 'post',
    path: `${FUNDS}/anonymous-transfer`,
    summary: 'Anonymous transfer',
    description:
      'The same body, rules and answers as the transfer (the docs leave its answer undocumented: the sandbox answers as the transfer does).',
    tag: TAG,
    auth: withBusiness,
    source: {
      spec: 'Anonymous transfer',
      docs: ['/api-reference/funds/anonymous-transfer'],
      sandbox: 'the answer, the same as the customer funds transfer’s',
    },
    body: transferBody,
    example: { ...transferExample, retrievalReference: 'anon-2026-0001' },
    warns: [RECEIVER_ACCOUNT_WARNING],
    responses,
    handle: async ({ deps, c, actor, business, body }) => {
      warnOfReceiver(c, body);
      return {
        data: await sendTransfer(deps, actor(), business, body, 'anonymous_transfer', requestOf(c, deps)),
      };
    },
  }),
];
