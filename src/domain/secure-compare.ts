import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in constant time. Both sides are hashed first, so neither the length nor the
 * position of the first difference leaks through timing.
 */
export function secureEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
