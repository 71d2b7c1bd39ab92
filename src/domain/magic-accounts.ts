/** A transfer failure a receiver account triggers: the NIBSS response code and its message. */
export interface TransferFailure {
  errorCode: string;
  errorMessage: string;
}

/**
 * Receiver account numbers that always fail, whatever the bank code, so a tester can reach each failure path
 * of a transfer without a scenario.
 */
export const MAGIC_ACCOUNTS: Readonly<Record<string, TransferFailure>> = {
  '0000000051': { errorCode: '51', errorMessage: 'Insufficient Funds' },
  '0000000007': { errorCode: '07', errorMessage: 'Invalid Account' },
  '0000000091': { errorCode: '91', errorMessage: 'Beneficiary Bank not available' },
  '0000000096': { errorCode: '96', errorMessage: 'System malfunction' },
};

export function magicFailure(receiverAccountNumber: string): TransferFailure | undefined {
  return Object.hasOwn(MAGIC_ACCOUNTS, receiverAccountNumber)
    ? MAGIC_ACCOUNTS[receiverAccountNumber]
    : undefined;
}
