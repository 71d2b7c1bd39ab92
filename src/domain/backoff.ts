/**
 * The delay before retry number `retry` (1 for the first retry): `base · factor^(retry - 1)` ms. With the
 * defaults, 1 s, 2 s, 4 s, 8 s, 16 s.
 */
export function retryDelayMs(retry: number, baseMs: number, factor: number): number {
  return Math.round(baseMs * factor ** Math.max(0, retry - 1));
}
