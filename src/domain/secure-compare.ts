import { timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time for their length: the time taken does not depend on where they
 * first differ. A length mismatch still costs one full comparison, so it answers no faster than a near miss.
 */
export function secureEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba);
    return false;
  }
  return timingSafeEqual(ba, bb);
}
