import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { dashboardCookie, dashboardOffer, takeDashboardToken, tokenPrompt } from '../dashboard/token.js';
import { ApiError } from '../domain/errors.js';
import { secureEqual } from '../domain/secure-compare.js';
import { isWebhookAgent } from '../engine/webhook-agent.js';
import type { AppEnv } from '../http/env.js';
import { carriesBody, controlRefusal } from '../http/exposure.js';
import { header } from '../http/headers.js';

/**
 * What stands before every `/__sandbox` path, routes or not (the documents, the dashboard and its assets too):
 * a webhook delivery is refused (403), then with `--control-token` a request without it (401: the JSON envelope,
 * or for a browser opening the dashboard, the page that asks for the token). The dashboard takes the token from
 * `?token=` or from its page's form (a POST), and answers it with the cookie and a 303. Without a token, a call a
 * page of another origin sent is refused (403), and a call that changes state must carry JSON or no body (415):
 * what a cross-site form can send is neither (`controlRefusal`).
 */
export function controlGuard(config: Pick<Config, 'controlToken'>): MiddlewareHandler<AppEnv> {
  const token = config.controlToken;
  return async (c, next) => {
    // Behind the rule that refuses a webhook URL pointing at the sandbox: a delivery that still reaches it, by a
    // name that rule cannot know (a compose service name, a port mapping), cannot drive it.
    if (isWebhookAgent(header(c, 'user-agent')))
      throw new ApiError(403, 'Webhook deliveries cannot call the control API');
    if (!token) {
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
      });
      if (refusal) throw refusal;
    } else {
      // Before the check: the form's POST carries no token in a header or cookie yet.
      const offer = await dashboardOffer(c);
      const redirect = takeDashboardToken(c, token, offer);
      if (redirect) return redirect;
      const given = header(c, 'x-sandbox-token') ?? dashboardCookie(c);
      if (!given || !secureEqual(given, token)) {
        // A browser opening the dashboard gets a page that asks for the token; every other caller the envelope.
        const prompt = tokenPrompt(c, offer);
        if (prompt) return prompt;
        throw new ApiError(401, 'x-sandbox-token is missing or wrong');
      }
    }
    await next();
  };
}
