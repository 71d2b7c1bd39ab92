import type { Context } from 'hono';
import { sendTransfer, type TransferOptions } from '../../bank/transfers/service.js';
import {
  anonymousTransferContract,
  type TransferInput,
  transferContract,
} from '../../contract/api/transfers.js';
import type { Deps } from '../../deps.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { AppEnv } from '../../http/env.js';
import type { Route } from '../../http/route.js';
import { chosenScenario } from '../../http/scenario.js';
import { warn } from '../../http/warnings.js';
import { type ApiRuntime, route } from '../runtime.js';

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
export const transferRoutes: Route<ApiRuntime>[] = [
  route(transferContract, async ({ deps, c, actor, business, body }) => {
    warnOfReceiver(c, body);
    return {
      data: await sendTransfer(deps, actor(), business, body, 'transfer', requestOf(c, deps)),
    };
  }),
  route(anonymousTransferContract, async ({ deps, c, actor, business, body }) => {
    warnOfReceiver(c, body);
    return {
      data: await sendTransfer(deps, actor(), business, body, 'anonymous_transfer', requestOf(c, deps)),
    };
  }),
];
