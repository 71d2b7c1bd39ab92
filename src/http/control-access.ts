import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Config } from '../config.js';
import { ApiError } from '../domain/errors.js';
import { secureEqual } from '../domain/secure-compare.js';
import { isWebhookAgent } from '../domain/webhook-agent.js';
import type { AppEnv } from './env.js';
import { carriesBody, controlRefusal } from './exposure.js';
import { header } from './headers.js';

// Who may drive the sandbox: the rules every door under `/__sandbox` applies before its own (the control API's guard
// in `src/control/guard.ts`, the dashboard's token flow in `src/dashboard/token.ts`).

/** The cookie that carries `--control-token` for the dashboard's page and the calls it makes, once it took it. */
export const TOKEN_COOKIE = 'sandbox_token';

/**
 * Refuses, by throwing, a request that may never drive the sandbox: a webhook delivery (403: behind the rule that
 * refuses a webhook URL pointing at the sandbox, a delivery that still reaches it by a name that rule cannot know,
 * a compose service name or a port mapping, cannot drive it); and a call a page of another origin may have sent on
 * its own: without `--control-token` every call, with one every call the dashboard's cookie authenticates (a browser
 * sends that cookie with a form of another port of the same host: same site is not same origin). Such a call from
 * another origin is 403, and one that changes state with a body other than JSON 415 (`controlRefusal`). A call
 * carrying the token in its header is code's (a test, curl, the handle): no page can send that header. `tokenForm`:
 * the dashboard's own token form, a form by nature, is held to the origin rules only.
 */
export function refuseForeignCall(
  c: Context<AppEnv>,
  config: Pick<Config, 'controlToken'>,
  { tokenForm = false }: { tokenForm?: boolean } = {},
): void {
  if (isWebhookAgent(header(c, 'user-agent')))
    throw new ApiError(403, 'Webhook deliveries cannot call the control API');
  const token = config.controlToken;
  if (token !== undefined && !cookieAuthenticated(c, token)) return;
  const refusal = controlRefusal({
    method: c.req.method,
    host: header(c, 'host') ?? new URL(c.req.url).host,
    origin: header(c, 'origin'),
    fetchSite: header(c, 'sec-fetch-site'),
    contentType: header(c, 'content-type'),
    hasBody: carriesBody(
      header(c, 'content-length'),
      header(c, 'transfer-encoding'),
      c.env.incoming !== undefined,
      c.req.raw,
    ),
    tokenForm,
  });
  if (refusal) throw refusal;
}

/** Whether the dashboard's cookie, and not the `x-sandbox-token` header, is what carries the right token. */
function cookieAuthenticated(c: Context<AppEnv>, token: string): boolean {
  if (header(c, 'x-sandbox-token') !== undefined) return false;
  const cookie = getCookie(c, TOKEN_COOKIE);
  return cookie !== undefined && secureEqual(cookie, token);
}

/** Whether the request carries `token`: the `x-sandbox-token` header, or the dashboard's cookie. */
export function carriesControlToken(c: Context<AppEnv>, token: string): boolean {
  const given = header(c, 'x-sandbox-token') ?? getCookie(c, TOKEN_COOKIE);
  return given !== undefined && secureEqual(given, token);
}

/** The refusal of a call without the token. */
export const missingControlToken = () => new ApiError(401, 'x-sandbox-token is missing or wrong');
