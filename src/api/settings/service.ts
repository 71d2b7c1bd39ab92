import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { ApiError } from '../../http/envelope.js';
import type { ClientRecord } from '../../store/records.js';
import { recordAudit } from '../audits/service.js';

export function apiKeys(client: ClientRecord) {
  return { publicKey: client.publicKey, secretKey: client.secretKey };
}

export async function updateWebhookUrl(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  webhookUrl: string,
): Promise<void> {
  await deps.store.mutate((tx) => {
    const current = tx.get('clients', client.id) ?? client;
    tx.put('clients', { ...current, webhookUrl });
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'SETTINGS',
      action: `Updated webhook URL to ${webhookUrl}`,
    });
  });
}

/** The billers a client may enable: bank codes from the fixtures. */
export function availableBillers(deps: Deps): string[] {
  return deps.fixtures.billers;
}

/** Replaces the client's enabled billers; every code must be an available biller. */
export async function configureBillers(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  billers: string[],
): Promise<void> {
  const known = new Set(deps.fixtures.billers);
  const unknown = billers.find((code) => !known.has(code));
  if (unknown !== undefined) throw new ApiError(400, `Invalid biller code: ${unknown}`);
  const enabled = [...new Set(billers)];
  await deps.store.mutate((tx) => {
    const current = tx.get('clients', client.id) ?? client;
    tx.put('clients', { ...current, billers: enabled });
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'SETTINGS',
      action: `Configured billers: ${enabled.join(', ') || 'none'}`,
    });
  });
}
