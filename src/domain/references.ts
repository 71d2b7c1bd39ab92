import type { Random } from './random.js';

/** The second `stamp` made its text for last, and that text: a batch's items all ask for the same second. */
let stampedSecond = Number.NaN;
let stamped = '';

function stamp(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== stampedSecond) {
    // yymmddHHMMSS in UTC.
    stamped = new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(2, 14);
    stampedSecond = second;
  }
  return stamped;
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
