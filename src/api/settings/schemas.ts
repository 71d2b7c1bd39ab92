import * as z from 'zod';
import billerCodes from '../../../fixtures/billers.json' with { type: 'json' };
import { text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';

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
  }, 'must be an absolute https URL (http is accepted for localhost, host.docker.internal and container names)')
  // The refinement is invisible to JSON Schema: the document says it in words.
  .meta({
    format: 'uri',
    description:
      'an absolute `https` URL; plain `http` only for `localhost` (and `*.localhost`), `127.x.x.x`, `::1`, `host.docker.internal` and single-label host names (a compose service); never the sandbox itself (its own port on a loopback or local address)',
  });

export const updateWebhookBody = z.object({ webhookUrl });

export const configureBillersBody = z.object({
  billers: z
    .array(
      text()
        // Documented only: the service answers an unknown code with its own 400 (`Invalid biller code: …`).
        .meta({
          enum: billerCodes,
          description: 'a biller of `fixtures/billers.json` (`GET /clients/settings/billers`)',
        }),
    )
    .max(200),
});

// What the routes answer.

export const apiKeys = lazy('ApiKeys', () =>
  z.strictObject({ publicKey: z.string(), secretKey: z.string() }),
);
export type ApiKeysView = z.infer<ReturnType<typeof apiKeys>>;

export const billers = lazy('Billers', () => z.strictObject({ billers: z.array(z.string()) }));
export type BillersView = z.infer<ReturnType<typeof billers>>;
