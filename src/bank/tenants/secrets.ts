import type { Deps } from '../../deps.js';
import { capAtEnd, hasExpired, isoOf } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';

/**
 * Issues a new secret key for a client (what "generate a new key" in the dashboard does). The old key keeps
 * working for the configured grace period, then gives 401.
 */
export async function rotateSecret(deps: Deps, clientId: string) {
  return deps.store.mutate((tx) => {
    const client = tx.get('clients', clientId);
    if (!client) throw new ApiError(404, 'Client not found');
    const now = deps.clock.now();
    const graceMs = deps.config.secretGrace * 1000;
    const validUntil = capAtEnd(now + graceMs);
    const secretKey = `sk_sandbox_${tx.random().hex(32)}`;
    const retiredSecrets = [...client.retiredSecrets.filter((s) => !hasExpired(s.validUntil, now))];
    // No grace, no retired key: at the end of time a validUntil of now is the end, which never comes (`hasExpired`).
    if (graceMs > 0) retiredSecrets.push({ key: client.secretKey, validUntil });
    tx.put('clients', { ...client, secretKey, retiredSecrets });
    return { clientId, secretKey, previousSecretValidUntil: isoOf(validUntil) };
  });
}
