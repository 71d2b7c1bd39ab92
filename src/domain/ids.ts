/**
 * Whether `value` is a UUID in either case (8-4-4-4-12 hex digits), and whether it has an upper-case digit. Character
 * by character rather than a regular expression: every `businessId` header of every request comes through here.
 */
function uuidCase(value: string): 'lower' | 'upper' | null {
  if (value.length !== 36) return null;
  let upper = false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return null;
    } else if (c >= 65 && c <= 70) upper = true;
    else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return null;
  }
  return upper ? 'upper' : 'lower';
}

/** A transaction reference the sandbox made (`references.ts`), the id of a transaction: `sbx` and 24 digits. */
function isTransactionReference(value: string): boolean {
  if (value.length !== 27 || value.slice(0, 3).toLowerCase() !== 'sbx') return false;
  for (let i = 3; i < 27; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * An id as the store keys it. The sandbox makes its ids as lower-case UUIDs and its transaction references as
 * `SBX` and digits; ids compare case-insensitively (UUIDs so by RFC 9562), so either in another case names the
 * same record. Anything else (a client's own reference, a code) is left exactly as given.
 */
export function canonicalId(value: string): string {
  const uuid = uuidCase(value);
  if (uuid !== null) return uuid === 'upper' ? value.toLowerCase() : value;
  return isTransactionReference(value) ? value.toUpperCase() : value;
}
