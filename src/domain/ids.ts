const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A transaction reference the sandbox made (`references.ts`), the id of a transaction. */
const TRANSACTION_REFERENCE = /^sbx\d{24}$/i;

/**
 * An id as the store keys it. The sandbox makes its ids as lower-case UUIDs and its transaction references as
 * `SBX` and digits; ids compare case-insensitively (UUIDs so by RFC 9562), so either in another case names the
 * same record. Anything else (a client's own reference, a code) is left exactly as given.
 */
export function canonicalId(value: string): string {
  if (UUID.test(value)) return value.toLowerCase();
  return TRANSACTION_REFERENCE.test(value) ? value.toUpperCase() : value;
}
