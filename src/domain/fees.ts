/** The fee tables of `fixtures/fees.json`: outgoing transfer tiers in kobo, and the incoming charge. */
export interface FeeTable {
  /** Ascending; `upTo: null` is the last tier. */
  transfer: readonly { upTo: number | null; fee: number }[];
  /** A rate in basis points, capped, in kobo. */
  incoming: { rateBasisPoints: number; cap: number };
}

/** The NIP fee of an outgoing transfer of `amount` kobo: the first tier whose `upTo` covers it. */
export function transferFee(amount: number, fees: FeeTable): number {
  for (const tier of fees.transfer) {
    if (tier.upTo === null || amount <= tier.upTo) return tier.fee;
  }
  return fees.transfer[fees.transfer.length - 1]?.fee ?? 0;
}

/** The charge on an incoming payment of `amount` kobo: a rate in basis points, rounded down, capped. */
export function incomingCharge(amount: number, fees: FeeTable): number {
  return Math.min(Math.floor((amount * fees.incoming.rateBasisPoints) / 10_000), fees.incoming.cap);
}
