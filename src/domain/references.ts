import type { Random } from './random.js';

function stamp(nowMs: number): string {
  // yymmddHHMMSS in UTC.
  return new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(2, 14);
}

/**
 * A transaction reference: `SBX` + yymmddHHMMSS + 12 random digits. Thousands are made in the same second (a
 * bulk batch), so callers still check it against the references in use.
 */
export function transactionReference(random: Random, nowMs: number): string {
  return `SBX${stamp(nowMs)}${random.digits(12)}`;
}

/** A 30-digit NIP session id: the sending institution's 6-digit code, yymmddHHMMSS, 12 random digits. */
export function nipSessionId(bankCode: string, random: Random, nowMs: number): string {
  return `${bankCode.padStart(6, '0')}${stamp(nowMs)}${random.digits(12)}`;
}

/** A virtual account's system reference, as the bank's docs show one (`STL|jYcphJZcT73yjv`): `STL|` and 14 letters and digits. */
export function systemReference(random: Random): string {
  return `STL|${random.alphanumeric(14)}`;
}
