import { hasExpired } from './clock.js';
import { secureEqual } from './secure-compare.js';

/** The keys of one client: its current secret and the ones rotated out, each valid until a time. */
export interface ClientSecrets {
  secretKey: string;
  retiredSecrets: readonly { key: string; validUntil: number }[];
}

/** True when `key` is the current secret or a rotated-out one still in its grace period (constant time). */
export function isClientSecret(client: ClientSecrets, key: string, nowMs: number): boolean {
  if (secureEqual(client.secretKey, key)) return true;
  return client.retiredSecrets.some((s) => !hasExpired(s.validUntil, nowMs) && secureEqual(s.key, key));
}

/** True when `key` is the current secret alone, not a rotated-out one in its grace period (constant time). */
export function isCurrentSecret(client: ClientSecrets, key: string): boolean {
  return secureEqual(client.secretKey, key);
}

/** True for a production key (`sk_live_…`, `pk_live_…`), which the sandbox refuses outright. */
export function isProductionKey(value: string): boolean {
  return value.startsWith('sk_live_') || value.startsWith('pk_live_');
}
