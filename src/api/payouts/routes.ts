import { createPayout, deletePayout, listPayouts, updatePayout } from '../../bank/payouts/service.js';
import {
  createPayoutAccountContract,
  deletePayoutAccountContract,
  listPayoutAccountsContract,
  type PayoutInput,
  updatePayoutAccountContract,
} from '../../contract/api/payouts.js';
import { DONE } from '../../contract/kit.js';
import { nubanWarning } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type ApiRuntime, route } from '../runtime.js';

/** Warns of a payout account that cannot exist. */
const warnOfAccount = (c: Parameters<typeof warn>[0], body: PayoutInput) =>
  warn(
    c,
    nubanWarning(
      'accountNumber',
      body.accountNumber,
      body.bankCode,
      'production would refuse this payout account (no such account)',
    ),
  );

/**
 * `/clients/business/payouts`: up to three payout accounts per client. They belong to the client (the docs' records
 * carry `clientId`): every business of the client lists, changes and deletes the same ones.
 */
export const payoutRoutes: Route<ApiRuntime>[] = [
  route(listPayoutAccountsContract, ({ deps, business, query }) => ({
    page: listPayouts(deps, business, query),
  })),
  route(createPayoutAccountContract, async ({ deps, c, actor, business, body }) => {
    warnOfAccount(c, body);
    await createPayout(deps, actor(), business, body);
    return { status: 201 };
  }),
  route(updatePayoutAccountContract, async ({ deps, c, actor, business, params, body }) => {
    warnOfAccount(c, body);
    await updatePayout(deps, actor(), business, params.payoutAccountId, body);
    return DONE;
  }),
  route(deletePayoutAccountContract, async ({ deps, actor, business, params }) => {
    await deletePayout(deps, actor(), business, params.payoutAccountId);
    return DONE;
  }),
];
