import type { Random } from './random.js';

function stamp(nowMs: number): string {
  // yymmddHHMMSS in UTC.
  return new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(2, 14);
}

/** A transaction reference: `SBX` + yymmddHHMMSS + 8 random digits, unique enough to key the ledger. */
export function transactionReference(random: Random, nowMs: number): string {
  return `SBX${stamp(nowMs)}${random.digits(8)}`;
}

/** A 30-digit NIP session id: the sending institution's 6-digit code, yymmddHHMMSS, 12 random digits. */
export function nipSessionId(bankCode: string, random: Random, nowMs: number): string {
  return `${bankCode.padStart(6, '0')}${stamp(nowMs)}${random.digits(12)}`;
}
