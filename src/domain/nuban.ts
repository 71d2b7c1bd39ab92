/**
 * NUBAN check digits (CBN's revised 2018/2020 standard).
 *
 * The check digit is computed over the 6-digit institution code followed by the 9-digit serial number,
 * with the weights 3,7,3 repeated. A 3-digit deposit money bank code is left-padded with zeros to six
 * digits, which makes the result identical to the original 12-digit NUBAN algorithm for those banks.
 */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

function institutionCode(bankCode: string): string {
  if (!/^\d{3}$|^\d{6}$/.test(bankCode)) {
    throw new Error(`bank code must have 3 or 6 digits, got "${bankCode}"`);
  }
  return bankCode.padStart(6, '0');
}

/** The check digit for a 9-digit serial number at the bank with this 3- or 6-digit code. */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  if (!/^\d{9}$/.test(serial)) throw new Error(`serial must have 9 digits, got "${serial}"`);
  const digits = institutionCode(bankCode) + serial;
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

/** A full 10-digit NUBAN: the serial followed by its check digit. */
export function makeNuban(bankCode: string, serial: string): string {
  return serial + String(nubanCheckDigit(bankCode, serial));
}

/** True when `accountNumber` is 10 digits whose last digit is the right check digit for `bankCode`. */
export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}

/** Serials `accountNumbersOf` draws from: nine digits with no leading zero, so never a magic `0000000xx`. */
const FIRST_SERIAL = 100_000_000;
const SERIALS = 900_000_000;
/**
 * The step between one serial and the next: 7^10, which shares no factor with `SERIALS` (2^8·3^2·5^8), so the
 * first `SERIALS` serials of a bank are all different, and neighbours look nothing alike.
 */
const STRIDE = 282_475_249;

/**
 * The first `count` account numbers of a bank's sequence: 10-digit NUBANs whose check digit is right for
 * `bankCode`, all different, none starting with 0 (so never one of the magic receivers `0000000051`, …). The
 * same bank code always gives the same sequence, in every sandbox and run: a pure function, no draw.
 */
export function accountNumbersOf(bankCode: string, count: number): string[] {
  // Where a bank's sequence starts depends on its code, so two banks' lists share no serial at the same place.
  const start = (Number(institutionCode(bankCode)) * 104_729) % SERIALS;
  return Array.from({ length: count }, (_, i) => {
    const serial = FIRST_SERIAL + ((start + i * STRIDE) % SERIALS);
    return makeNuban(bankCode, String(serial));
  });
}
