import type { Context } from 'hono';
import { sendTransfer, type TransferOptions } from '../../bank/transfers/service.js';
import {
  anonymousTransferContract,
  type TransferInput,
  transferContract,
} from '../../contract/api/transfers.js';
import type { Deps } from '../../deps.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { Scheduler } from '../../engine/scheduler.js';
import type { AppEnv } from '../../http/env.js';
import type { Route } from '../../http/route.js';
import { chosenScenario, loseAfterCommit } from '../../http/scenario.js';
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

/**
 * What the request says of a transfer besides its body: its chosen scenario, where the rule that fired goes, its id,
 * where an answer lost after the commit goes (the request's), and a reversal the rules scheduled (the world's).
 */
const requestOf = (c: Context<AppEnv>, deps: Pick<Deps, 'scenarios'>, later: Scheduler): TransferOptions => {
  const scenario = chosenScenario(c, deps);
  return {
    scenario,
    fired: (rule) => {
      c.env.facts.scenario = rule;
    },
    requestId: c.env.facts.requestId,
    lost: (hit, key) => loseAfterCommit(c, deps, hit, scenario, key, null),
    later,
  };
};

/** `/clients/business/customers/funds`: single transfers (bulk transfers live beside them). */
export const transferRoutes: Route<ApiRuntime>[] = [
  route(transferContract, async ({ deps, engines, c, actor, business, body }) => {
    warnOfReceiver(c, body);
    const options = requestOf(c, deps, engines.later);
    return { data: await sendTransfer(deps, actor(), business, body, 'transfer', options) };
  }),
  route(anonymousTransferContract, async ({ deps, engines, c, actor, business, body }) => {
    warnOfReceiver(c, body);
    const options = requestOf(c, deps, engines.later);
    return { data: await sendTransfer(deps, actor(), business, body, 'anonymous_transfer', options) };
  }),
];
