import type { Context, MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Config } from '../config.js';
import {
  CONTROL_DOCS_URL,
  CONTROL_PREFIX,
  DASHBOARD_PATH,
  DOCS_PATH,
  ISOLATED_PREFIX,
} from '../contract/mounts.js';
import { secureEqual } from '../domain/secure-compare.js';
import {
  carriesControlToken,
  missingControlToken,
  refuseForeignCall,
  TOKEN_COOKIE,
} from '../http/control-access.js';
import type { AppEnv } from '../http/env.js';
import { header } from '../http/headers.js';
import { TOKEN_PAGE_HEADERS, tokenPage } from './token-page.js';

// A browser cannot set a header on a page it opens, nor on an EventSource: the dashboard takes the token once,
// as a same-site cookie for the page and the calls it makes. A browser that opens it without the token gets a page
// asking for it, whose form POSTs it here: in a body, never in a URL that the history or a proxy's log would keep.
// A link or a script may still open `?token=` (a GET), which is taken the same way.

/**
 * The largest form body the token page's POST is read from: the form holds a token and a `next`. A larger one
 * (by its Content-Length, or as a chunked one streams in), or one that is not `application/x-www-form-urlencoded`,
 * counts as no token: the 401 (the page, or the envelope), never a 413 nor a 500.
 */
export const TOKEN_FORM_MAX_BYTES = 4096;

/**
 * Where `?next=` may send the browser once the token is taken: a fixed list, so the page is no open redirect.
 * `/docs` twice: as it opens, and opened on the control document (what the docs page's notice links with).
 */
export const NEXT_PAGES: readonly string[] = [DASHBOARD_PATH, DOCS_PATH, CONTROL_DOCS_URL];

/** `?next=` when it is one of `NEXT_PAGES`, else undefined. */
export const acceptedNext = (next: string | undefined): string | undefined =>
  next !== undefined && NEXT_PAGES.includes(next) ? next : undefined;

/**
 * What a request to the dashboard offers: `token` and `next`, from the query of a GET or the form body of a POST
 * (`posted`). Undefined for any other request.
 */
export interface TokenOffer {
  posted: boolean;
  token: string | undefined;
  next: string | undefined;
}

/** The body's text when it is at most `TOKEN_FORM_MAX_BYTES`, else undefined (the rest left unread). */
async function boundedText(c: Context<AppEnv>): Promise<string | undefined> {
  const declared = header(c, 'content-length');
  if (declared !== undefined && !(Number(declared) <= TOKEN_FORM_MAX_BYTES)) return undefined;
  const body = c.req.raw.body;
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > TOKEN_FORM_MAX_BYTES) {
      // Chunked, and longer than it may be: the rest is not read, so the connection closes after the answer
      // (as `limit()` does with a body too large).
      c.header('connection', 'close');
      return undefined;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The form's fields; none when the body is not the form the page sends, is too large, or cannot be read. */
async function formFields(c: Context<AppEnv>): Promise<URLSearchParams> {
  const type = (header(c, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return new URLSearchParams();
  try {
    // URLSearchParams reads any text: a stray `%` stays as it is.
    return new URLSearchParams((await boundedText(c)) ?? '');
  } catch {
    // The client went away part way (the app answers it 499).
    return new URLSearchParams();
  }
}

/** The token and `next` a GET or POST of the dashboard offers; undefined for another request, which offers none. */
export async function dashboardOffer(c: Context<AppEnv>): Promise<TokenOffer | undefined> {
  if (c.req.path !== DASHBOARD_PATH) return undefined;
  if (c.req.method === 'GET')
    return { posted: false, token: c.req.query('token'), next: c.req.query('next') };
  if (c.req.method !== 'POST') return undefined;
  const form = await formFields(c);
  return { posted: true, token: form.get('token') ?? undefined, next: form.get('next') ?? undefined };
}

/** The dashboard of the request's sandbox: the root's, or an isolated one's under its `/sandboxes/{id}`. */
const dashboardHere = (c: Context<AppEnv>) => `${c.env.world.prefix}${DASHBOARD_PATH}`;

/**
 * The right token offered: it goes into the cookie and the browser is sent on without it (303, a GET), to `next`
 * when that is an accepted page, else to the dashboard. Undefined otherwise.
 */
export function takeDashboardToken(
  c: Context<AppEnv>,
  token: string,
  offer: TokenOffer | undefined,
): Response | undefined {
  const offered = offer?.token;
  if (offered === undefined || !secureEqual(offered, token)) return undefined;
  // The root's control API, or, taken in an isolated sandbox, every isolated sandbox's (each under `/sandboxes/{id}`).
  const path = c.env.world.id === null ? CONTROL_PREFIX : ISOLATED_PREFIX;
  setCookie(c, TOKEN_COOKIE, offered, { path, httpOnly: true, sameSite: 'Strict' });
  const next = acceptedNext(offer?.next);
  return c.redirect(next === undefined || next === DASHBOARD_PATH ? dashboardHere(c) : next, 303);
}

/**
 * The 401 a browser gets on the dashboard without a valid token: the page that asks for it, saying so when a
 * token was offered (`?token=`, or any POST of the form) and was wrong. Undefined for anything else (another path
 * or method, or a client that does not ask for HTML: an API client, the page's own fetch calls, its event
 * stream), which keeps the JSON 401.
 */
export function tokenPrompt(c: Context<AppEnv>, offer: TokenOffer | undefined): Response | undefined {
  if (offer === undefined || !(header(c, 'accept') ?? '').toLowerCase().includes('text/html'))
    return undefined;
  const offered = offer.token;
  const page = tokenPage({
    action: dashboardHere(c),
    wrong: offer.posted || offered !== undefined,
    next: acceptedNext(offer.next),
  });
  return c.body(page, 401, TOKEN_PAGE_HEADERS);
}

/**
 * What stands before the dashboard's paths: the rules of every control call (`refuseForeignCall`), then with
 * `--control-token` the token flow: the right token offered (`?token=`, or the token page's POST) goes into the
 * cookie with a 303; without the token, a browser opening the page gets the page that asks for it, anyone else
 * the JSON 401.
 */
export function dashboardGuard(config: Pick<Config, 'controlToken'>): MiddlewareHandler<AppEnv> {
  const token = config.controlToken;
  return async (c, next) => {
    refuseForeignCall(c, config, { tokenForm: c.req.method === 'POST' && c.req.path === DASHBOARD_PATH });
    if (token) {
      // Before the check: the form's POST carries no token in a header or cookie yet.
      const offer = await dashboardOffer(c);
      const redirect = takeDashboardToken(c, token, offer);
      if (redirect) return redirect;
      if (!carriesControlToken(c, token)) {
        const prompt = tokenPrompt(c, offer);
        if (prompt) return prompt;
        throw missingControlToken();
      }
    }
    await next();
  };
}
