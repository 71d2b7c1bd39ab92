import { html } from 'hono/html';
import { settings } from '../config.js';
import { HTML_TYPE } from '../contract/control/dashboard.js';

// What a browser gets instead of the JSON 401 when it opens the dashboard without `--control-token`: a page that
// asks for the token. Self-contained (inline style, no script, nothing fetched), so it needs nothing the guard
// would refuse.

/** The page's headers: never kept by a cache (it answers differently once the token is given), nothing framed. */
export const TOKEN_PAGE_HEADERS = {
  'content-type': HTML_TYPE,
  'cache-control': 'no-store',
  // The same URL answers JSON to a client that does not ask for HTML.
  vary: 'accept',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
} as const;

const { flag, env } = settings.controlToken;

/**
 * The page that asks for the control token. `wrong`: a token was offered and was not right (the page says so, and
 * never shows it back). `next`: where to go once it is right, carried by the form; it is escaped whatever it
 * is, though the caller only gives one of the places `token.ts` accepts.
 */
export function tokenPage({
  action,
  wrong,
  next,
}: {
  action: string;
  wrong: boolean;
  next?: string;
}): string {
  // `html` escapes every value put into it (the fragments made with it stay as they are).
  const nextField = next === undefined ? '' : html`\n<input type="hidden" name="next" value="${next}">`;
  const wrongLine = wrong
    ? html`\n<p class="wrong" role="alert">That token was not right. Check it and try again.</p>`
    : '';
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Banking sandbox: control token needed</title>
<link rel="icon" href="data:,">
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1c1e21; }
main { max-width: 32rem; margin: 10vh auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px #0002; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
code { background: #eef0f3; padding: 0 .25em; border-radius: 3px; }
label { display: block; font-weight: 600; margin: 1.25rem 0 .35rem; }
input[type=password] { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid #9aa1ab; border-radius: 4px; }
button { margin-top: 1rem; padding: .5rem 1.25rem; font: inherit; color: #fff; background: #0b6e4f; border: 0; border-radius: 4px; cursor: pointer; }
.wrong { color: #a4161a; background: #fde8e8; padding: .5rem .75rem; border-radius: 4px; }
.note { color: #555; font-size: .9rem; margin-top: 1.5rem; }
</style>
</head>
<body>
<main>
<h1>This sandbox needs its control token</h1>
<p>It was started with <code>--${flag}</code> (or the environment variable <code>${env}</code>), so its dashboard, its
control API and the control document open only with that token. It is the value given there: look in the command,
the compose file or the environment that started the sandbox.</p>${wrongLine}
<form method="post" action="${action}">
<label for="token">Control token</label>
<input id="token" name="token" type="password" autocomplete="off" required autofocus>${nextField}
<button type="submit">Open</button>
</form>
<p class="note">This browser then keeps the token in a cookie for <code>/__sandbox</code> (in an isolated sandbox: for every isolated one). API clients send it as
the header <code>x-sandbox-token</code>.</p>
</main>
</body>
</html>
`);
}
