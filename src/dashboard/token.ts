import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secureEqual } from '../domain/secure-compare.js';
import type { AppEnv } from '../http/env.js';

// A browser cannot set a header on a page it opens, nor on an EventSource: the dashboard is opened once with
// `?token=`, which becomes a same-site cookie for the page and the calls it makes.

/** The cookie that carries `--control-token` for the dashboard, once it was opened with `?token=`. */
export const TOKEN_COOKIE = 'sandbox_token';
const DASHBOARD_PATH = '/__sandbox/ui';

/**
 * The dashboard opened with the right `?token=`: the token goes into the cookie and the page redirects to itself
 * without it (303). Undefined for any other request.
 */
export function takeDashboardToken(c: Context<AppEnv>, token: string): Response | undefined {
  if (c.req.method !== 'GET' || c.req.path !== DASHBOARD_PATH) return undefined;
  const offered = c.req.query('token');
  if (offered === undefined || !secureEqual(offered, token)) return undefined;
  setCookie(c, TOKEN_COOKIE, offered, { path: '/__sandbox', httpOnly: true, sameSite: 'Strict' });
  return c.redirect(DASHBOARD_PATH, 303);
}

/** The token a page of the dashboard sends: its cookie. */
export const dashboardCookie = (c: Context<AppEnv>): string | undefined => getCookie(c, TOKEN_COOKIE);
