/** Why a transfer or bulk item failed: the provider's (NIBSS) response code and its message. */
export interface TransferFailure {
  errorCode: string;
  errorMessage: string;
}

export const INSUFFICIENT_FUNDS: TransferFailure = { errorCode: '51', errorMessage: 'Insufficient Funds' };
