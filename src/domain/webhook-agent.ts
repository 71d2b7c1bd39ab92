import pkg from '../../package.json' with { type: 'json' };
import type { ClientRecord } from './records.js';

const PRODUCT = 'banking-sandbox-webhooks';

/** The User-Agent of every webhook delivery, so a receiver (and the sandbox itself) can tell them apart. */
export const WEBHOOK_USER_AGENT = `${PRODUCT}/${pkg.version}`;

/** Whether a User-Agent header is the sandbox's webhook client, of any version. */
export function isWebhookAgent(userAgent: string | undefined): boolean {
  return userAgent?.toLowerCase().startsWith(`${PRODUCT}/`) ?? false;
}

/** The header that carries the client's `webhookAuthKey`, spelled as the bank sends it. */
export const AUTH_KEY_HEADER = 'AUTH-KEY';

/**
 * The headers a delivery is sent with (the `content-length` of the payload aside, set as it goes): JSON, the
 * client's `AUTH-KEY`, the sandbox's User-Agent. Without a client (one deleted since the payment) there is no key
 * to send, and no `AUTH-KEY`.
 */
export function webhookHeaders(
  client: Pick<ClientRecord, 'webhookAuthKey'> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (client) headers[AUTH_KEY_HEADER] = client.webhookAuthKey;
  headers['user-agent'] = WEBHOOK_USER_AGENT;
  return headers;
}
