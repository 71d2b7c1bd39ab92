import { hostname, networkInterfaces } from 'node:os';
import type { ApiKeysView } from '../../contract/api/settings.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { ApiError } from '../../domain/errors.js';
import type { ClientRecord } from '../../domain/records.js';
import { pointsAtSelf } from '../../domain/self-url.js';
import { recordAudit } from '../audits/service.js';

/** The client's key pair. */
export function keysOf(client: ClientRecord): ApiKeysView {
  return { publicKey: client.publicKey, secretKey: client.secretKey };
}

/** The machine's host name and every address of its interfaces, read now (interfaces come and go). */
function localNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return [hostname(), ...addresses];
}

/**
 * A check of URLs against the sandbox's own address: it answers the message refusing a URL that points at the
 * sandbox itself (its own port on a loopback or local address), or null. While the sandbox is not served on a
 * port, nothing can point at it. The machine's names (`readNames`) are read once for a batch of URLs, and only
 * for a URL on the sandbox's own port: reading the interfaces asks the kernel for every address (a `getifaddrs`
 * over netlink), which was about two fifths of the CPU of setting a webhook URL, whose port is nearly never the
 * sandbox's.
 */
export function selfPointing(
  deps: Pick<Deps, 'ownPort'>,
  readNames: () => string[] = localNames,
): (url: string) => string | null {
  const port = deps.ownPort();
  if (port === null) return () => null;
  let names: string[] | undefined;
  const self = {
    port,
    get local() {
      names ??= readNames();
      return names;
    },
  };
  return (url) =>
    pointsAtSelf(url, self)
      ? `must not point at the sandbox itself (port ${port} of this machine): a delivery would call the sandbox's own API`
      : null;
}

/** Throws 400 naming `field` when `url` points at the sandbox itself. */
export function refuseSelfPointing(deps: Pick<Deps, 'ownPort'>, url: string, field = 'webhookUrl'): void {
  const problem = selfPointing(deps)(url);
  if (problem) throw new ApiError(400, `${field} ${problem}`, [{ field, message: problem }]);
}

/** Sets the client's webhook URL; one that points at the sandbox itself is refused (400). */
export async function updateWebhookUrl(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  webhookUrl: string,
): Promise<void> {
  refuseSelfPointing(deps, webhookUrl);
  await deps.store.mutate((tx) => {
    const current = tx.get('clients', client.id) ?? client;
    tx.put('clients', { ...current, webhookUrl });
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'settings',
      action: 'update',
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
      type: 'settings',
      action: 'update',
    });
  });
}
