import * as z from 'zod';

/** Hosts a plain-http webhook may point at: this machine, the Docker host, and single-label container names. */
function allowsPlainHttp(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === 'host.docker.internal' ||
    /^[a-z0-9-]+$/.test(host)
  );
}

export const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && allowsPlainHttp(url.hostname);
  }, 'must be an absolute https URL (http is accepted for localhost, host.docker.internal and container names)');

export const updateWebhookBody = z.object({ webhookUrl });

export const configureBillersBody = z.object({
  billers: z.array(z.string().trim().min(1).max(10)).max(200),
});
