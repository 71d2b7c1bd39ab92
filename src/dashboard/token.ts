import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secureEqual } from '../domain/secure-compare.js';
import type { AppEnv } from '../http/env.js';
import { header } from '../http/headers.js';
import { CONTROL_DOCS_URL } from '../openapi/docs-page.js';
import { TOKEN_PAGE_HEADERS, tokenPage } from './token-page.js';

// A browser cannot set a header on a page it opens, nor on an EventSource: the dashboard is opened once with
// `?token=`, which becomes a same-site cookie for the page and the calls it makes. A browser that opens it without
// the token gets a page asking for it (the form sends `?token=` here).

/** The cookie that carries `--control-token` for the dashboard, once it was opened with `?token=`. */
export const TOKEN_COOKIE = 'sandbox_token';
/** The dashboard's page: the only place that takes `?token=` and asks for it. */
export const DASHBOARD_PATH = '/__sandbox/ui';

/**
 * Where `?next=` may send the browser once the token is taken: a fixed list, so the page is no open redirect.
 * `/docs` twice: as it opens, and opened on the control document (what the docs page's notice links with).
 */
export const NEXT_PAGES: readonly string[] = [DASHBOARD_PATH, '/docs', CONTROL_DOCS_URL];

/** `?next=` when it is one of `NEXT_PAGES`, else undefined. */
export const acceptedNext = (next: string | undefined): string | undefined =>
  next !== undefined && NEXT_PAGES.includes(next) ? next : undefined;

const isDashboardGet = (c: Context<AppEnv>) => c.req.method === 'GET' && c.req.path === DASHBOARD_PATH;

/**
 * The dashboard opened with the right `?token=`: the token goes into the cookie and the browser is sent on without
 * it (303), to `?next=` when that is an accepted page, else to the dashboard. Undefined for any other request.
 */
export function takeDashboardToken(c: Context<AppEnv>, token: string): Response | undefined {
  if (!isDashboardGet(c)) return undefined;
  const offered = c.req.query('token');
  if (offered === undefined || !secureEqual(offered, token)) return undefined;
  setCookie(c, TOKEN_COOKIE, offered, { path: '/__sandbox', httpOnly: true, sameSite: 'Strict' });
  return c.redirect(acceptedNext(c.req.query('next')) ?? DASHBOARD_PATH, 303);
}

/**
 * The 401 a browser gets on the dashboard without a valid token: the page that asks for it, saying so when a
 * `?token=` was offered and was wrong. Undefined for anything else (another path or method, or a client that does
 * not ask for HTML: an API client, the page's own fetch calls, its event stream), which keeps the JSON 401.
 */
export function tokenPrompt(c: Context<AppEnv>): Response | undefined {
  if (!isDashboardGet(c) || !(header(c, 'accept') ?? '').toLowerCase().includes('text/html'))
    return undefined;
  const offered = c.req.query('token');
  const page = tokenPage({
    action: DASHBOARD_PATH,
    wrong: offered !== undefined,
    next: acceptedNext(c.req.query('next')),
  });
  return c.body(page, 401, TOKEN_PAGE_HEADERS);
}

/** The token a page of the dashboard sends: its cookie. */
export const dashboardCookie = (c: Context<AppEnv>): string | undefined => getCookie(c, TOKEN_COOKIE);
