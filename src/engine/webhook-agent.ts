import pkg from '../../package.json' with { type: 'json' };

const PRODUCT = 'banking-sandbox-webhooks';

/** The User-Agent of every webhook delivery, so a receiver (and the sandbox itself) can tell them apart. */
export const WEBHOOK_USER_AGENT = `${PRODUCT}/${pkg.version}`;

/** Whether a User-Agent header is the sandbox's webhook client, of any version. */
export function isWebhookAgent(userAgent: string | undefined): boolean {
  return userAgent?.toLowerCase().startsWith(`${PRODUCT}/`) ?? false;
}
