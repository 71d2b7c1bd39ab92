import type { AccountNumbersQuery, AccountNumbersView } from '../../contract/control/account-numbers.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { accountNumbersOf } from '../../domain/nuban.js';

/**
 * The first `count` account numbers of a bank the sandbox lists: 400 `Invalid bank code` for one it does not, as a
 * transfer to it would be refused.
 */
export function accountNumbers(
  deps: Pick<Deps, 'fixtures'>,
  { bankCode, count }: AccountNumbersQuery,
): AccountNumbersView {
  const bank = deps.fixtures.banks.banks.find((b) => b.code === bankCode);
  if (!bank) {
    const message = `Invalid bank code: "${bankCode}" is not in this sandbox’s bank list`;
    throw new ApiError(400, message, [{ field: 'bankCode', message }]);
  }
  return { bankCode, bankName: bank.name, accountNumbers: accountNumbersOf(bankCode, count) };
}
