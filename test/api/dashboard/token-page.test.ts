import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../../src/config.js';
import { CONTROL_DOCS_URL } from '../../../src/contract/mounts.js';
import { TOKEN_FORM_MAX_BYTES } from '../../../src/dashboard/token.js';
import { tokenPage } from '../../../src/dashboard/token-page.js';
import { DOCS_PAGE } from '../../../src/openapi/docs-page.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { memorySandbox } from '../../support/sandbox.js';

// With --control-token, a browser opening the dashboard without the token gets a page that asks for it (401,
// HTML); every other client keeps the JSON 401. The page's form POSTs `token` (and `next`) back to the dashboard,
// which takes it into the cookie and sends the browser on to an accepted `next` only; `?token=` on a GET (links,
// scripts) does the same.

const TOKEN = 'c0ntrol-T0ken';
const UI = '/__sandbox/ui';
/** What Chromium sends when it opens a page. */
const BROWSER = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
};
const ENVELOPE = { status: false, message: 'x-sandbox-token is missing or wrong', data: null };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await memorySandbox({ controlToken: TOKEN });
});
afterAll(() => sandbox.close());

const get = (path: string, headers: Record<string, string> = {}) => sandbox.app.request(path, { headers });
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** Fields URL-encoded, as a browser sends the page's form; or a body as given. */
type Posted = Record<string, string> | string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null;
const post = (body: Posted, headers: Record<string, string> = BROWSER) =>
  sandbox.app.request(UI, {
    method: 'POST',
    headers: { ...FORM, ...headers },
    body:
      body === null ||
      typeof body === 'string' ||
      body instanceof Uint8Array ||
      body instanceof ReadableStream
        ? body
        : new URLSearchParams(body).toString(),
    // A streamed body (what curl sends chunked) needs it.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

/** The prompt: 401, HTML, never cached, and no cookie set. */
async function prompt(path: string, headers: Record<string, string> = BROWSER): Promise<string> {
  const res = await get(path, headers);
  expect(res.status, path).toBe(401);
  expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('set-cookie')).toBeNull();
  return res.text();
}

/** The JSON 401, exactly as before the page existed. */
async function expectEnvelope(path: string, headers: Record<string, string> = {}): Promise<void> {
  const res = await get(path, headers);
  expect(res.status, path).toBe(401);
  expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
  expect(await res.json(), path).toEqual(ENVELOPE);
}

const hiddenNext = (html: string) => /<input type="hidden" name="next" value="([^"]*)">/.exec(html)?.[1];

describe('the token page, for a browser opening the dashboard without the token', () => {
  it('asks for the token: what the flag is, where to find it, a form back to the dashboard', async () => {
    const html = await prompt(UI);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`--${settings.controlToken.flag}`);
    expect(html).toContain(settings.controlToken.env);
    expect(html).toMatch(/<form method="post" action="\/__sandbox\/ui">/);
    expect(html).toMatch(/<label for="token">[^<]+<\/label>/);
    const input = /<input id="token"[^>]*>/.exec(html)?.[0] ?? '';
    expect(input).toContain('name="token"');
    expect(input).toContain('type="password"');
    expect(input).toContain('autofocus');
    expect(input).not.toContain('value=');
    expect(html).toMatch(/<button type="submit">/);
    expect(html).not.toContain('not right');
    expect(hiddenNext(html)).toBeUndefined();
    // Nothing the page would fetch from elsewhere, nor a script.
    expect(html).not.toMatch(/<script|src=|href="(?!data:)/);
  });

  it('says a wrong or empty ?token= was not right, never shows it back, and sets no cookie', async () => {
    for (const wrong of ['n0t-it', '', `${TOKEN}0`, '"><script>alert(1)</script>', TOKEN.toUpperCase()]) {
      const html = await prompt(`${UI}?token=${encodeURIComponent(wrong)}`);
      expect(html, wrong).toContain('That token was not right');
      if (wrong) expect(html, wrong).not.toContain(wrong);
      expect(html).not.toContain('<script');
    }
  });

  it('with a wrong cookie too', async () => {
    const html = await prompt(UI, { ...BROWSER, cookie: 'sandbox_token=stale' });
    expect(html).toContain('needs its control token');
  });

  it('with the token, the dashboard itself, not the page', async () => {
    const given: Record<string, string>[] = [
      { cookie: `sandbox_token=${TOKEN}` },
      { 'x-sandbox-token': TOKEN },
    ];
    for (const headers of given) {
      const res = await get(UI, { ...BROWSER, ...headers });
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain('needs its control token');
    }
  });
});

describe('the JSON 401 stays for whatever does not ask for HTML', () => {
  it.each([
    ['no accept (curl)', UI, {}],
    ['accept: */* (fetch)', UI, { accept: '*/*' }],
    ['accept: application/json', UI, { accept: 'application/json' }],
    ['a wrong ?token= from an API client', `${UI}?token=wrong`, { accept: 'application/json' }],
    ['the event stream', `${UI}/events`, { accept: 'text/event-stream' }],
    ['the event stream, asked like a page', `${UI}/events`, BROWSER],
    ['an asset', `${UI}/assets/app.js`, BROWSER],
    ['another control route', '/__sandbox/credentials', BROWSER],
    ['the control document', '/__sandbox/openapi.json', BROWSER],
    // Not a page the sandbox serves: the token first, then its 404.
    ['the dashboard with a trailing slash', `${UI}/`, BROWSER],
  ])('%s', async (_label, path, headers) => {
    await expectEnvelope(path, headers);
  });

  it.each([
    ['with a wrong token', { token: 'wrong' }],
    ['with the token as JSON', JSON.stringify({ token: TOKEN })],
    ['with no body', null],
  ])('a POST of the form from an API client, %s', async (_label, body) => {
    const res = await post(body, { accept: 'application/json' });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.json()).toEqual(ENVELOPE);
  });
});

describe("the page's form: a POST, so the token is never in a URL", () => {
  /** The page again: 401, HTML, saying the token was not right, no cookie. */
  async function refused(res: Response): Promise<string> {
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.headers.get('set-cookie')).toBeNull();
    const html = await res.text();
    expect(html).toContain('That token was not right');
    return html;
  }

  it('the right token: the cookie, and 303 to next (a GET, without the token)', async () => {
    const res = await post({ token: TOKEN, next: CONTROL_DOCS_URL });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(`^sandbox_token=${TOKEN}; Path=/__sandbox; HttpOnly; SameSite=Strict$`),
    );
    expect(res.headers.get('location')).toBe(CONTROL_DOCS_URL);
    // Without next, or with one not accepted: the dashboard. A client that asks for JSON is let in too.
    for (const [fields, headers] of [
      [{ token: TOKEN }, BROWSER],
      [{ token: TOKEN, next: '//evil.example' }, BROWSER],
      [{ token: TOKEN }, { accept: 'application/json' }],
    ] as const) {
      const taken = await post(fields, headers);
      expect(taken.status).toBe(303);
      expect(taken.headers.get('location')).toBe(UI);
    }
    // The cookie opens the dashboard.
    expect((await get(UI, { ...BROWSER, cookie: `sandbox_token=${TOKEN}` })).status).toBe(200);
  });

  it('a wrong or empty token: the page again, saying so, keeping an accepted next', async () => {
    for (const wrong of ['n0t-it', '', `${TOKEN}0`, '"><script>alert(1)</script>']) {
      const html = await refused(await post({ token: wrong, next: '/docs' }));
      if (wrong) expect(html, wrong).not.toContain(wrong);
      expect(html).not.toContain('<script');
      expect(hiddenNext(html)).toBe('/docs');
    }
    // The form's field missing, or nothing posted at all.
    await refused(await post({ next: '/docs' }));
    await refused(await post(null));
  });

  it('a body that is not the form, too large or malformed: no token, never a 500', async () => {
    const over = TOKEN_FORM_MAX_BYTES + 1;
    const large = `token=${TOKEN}&pad=${'x'.repeat(over)}`;
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`token=${TOKEN}&pad=`));
          for (let i = 0; i < 10; i += 1) controller.enqueue(new Uint8Array(Math.ceil(over / 4)).fill(120));
          controller.close();
        },
      });
    const bodies: [string, Posted, Record<string, string>][] = [
      ['over the limit', large, BROWSER],
      [
        'over the limit by its Content-Length',
        `token=${TOKEN}`,
        { ...BROWSER, 'content-length': String(over) },
      ],
      ['streamed past the limit without a length', stream(), BROWSER],
      ['JSON', JSON.stringify({ token: TOKEN }), { ...BROWSER, 'content-type': 'application/json' }],
      [
        'multipart',
        `--b\r\ncontent-disposition: form-data; name="token"\r\n\r\n${TOKEN}\r\n--b--`,
        {
          ...BROWSER,
          'content-type': 'multipart/form-data; boundary=b',
        },
      ],
      ['bad percent-encoding', 'token=%zz%&next=%E0%A4%A', BROWSER],
      ['not UTF-8', new Uint8Array([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x3d, 0xff, 0xfe]), BROWSER],
    ];
    for (const [label, body, headers] of bodies) {
      const res = await post(body, headers);
      expect(res.status, label).toBe(401);
      expect(res.headers.get('set-cookie'), label).toBeNull();
      expect(await res.text(), label).toContain('That token was not right');
    }
    // The same bodies from an API client: the envelope.
    const res = await post(large, { accept: 'application/json' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(ENVELOPE);
  });

  it('a GET with ?token= is still taken (links and scripts)', async () => {
    const res = await get(`${UI}?token=${TOKEN}&next=%2Fdocs`, BROWSER);
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^sandbox_token=${TOKEN};`));
    expect(res.headers.get('location')).toBe('/docs');
  });

  it('with the token already given, a POST is not a route (405); without --control-token a form is refused before any route (415)', async () => {
    const res = await post({}, { ...BROWSER, 'x-sandbox-token': TOKEN });
    expect(res.status).toBe(405);
    const open = await memorySandbox();
    try {
      // Without a token the page takes no token, and a form body is what a cross-site form sends: refused.
      const plain = await open.app.request(UI, {
        method: 'POST',
        headers: { ...BROWSER, ...FORM },
        body: 'token=x',
      });
      expect(plain.status).toBe(415);
      expect(plain.headers.get('set-cookie')).toBeNull();
      expect(((await plain.json()) as { message: string }).message).toMatch(
        /^Content-Type must be application\/json/,
      );
    } finally {
      await open.close();
    }
  });
});

describe('next: back where the browser came from, to an accepted page only', () => {
  const taken = async (query: string) => {
    const res = await get(`${UI}?token=${TOKEN}${query}`, BROWSER);
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^sandbox_token=${TOKEN};`));
    return res.headers.get('location');
  };

  it.each([
    ['/docs', '/docs'],
    ['/__sandbox/ui', UI],
    [CONTROL_DOCS_URL, CONTROL_DOCS_URL],
  ])('accepts %s', async (next, location) => {
    expect(await taken(`&next=${encodeURIComponent(next)}`)).toBe(location);
  });

  it.each([
    '//evil.example',
    'https://evil.example',
    'http://evil.example/docs',
    '/\\evil',
    '\\\\evil.example',
    '/docs/../evil',
    '/docs?x=1',
    '/docs#/x',
    '/docs ',
    '/DOCS',
    '/openapi.json',
    '',
  ])('refuses %j: the dashboard instead', async (next) => {
    expect(await taken(`&next=${encodeURIComponent(next)}`)).toBe(UI);
  });

  it('without next, the dashboard', async () => {
    expect(await taken('')).toBe(UI);
  });

  it('the page carries an accepted next in its form, escaped, and drops a refused one', async () => {
    expect(hiddenNext(await prompt(`${UI}?next=%2Fdocs`))).toBe('/docs');
    expect(hiddenNext(await prompt(`${UI}?next=${encodeURIComponent(CONTROL_DOCS_URL)}`))).toBe(
      CONTROL_DOCS_URL,
    );
    // After a wrong token, still: the next try goes back there too.
    expect(hiddenNext(await prompt(`${UI}?token=wrong&next=%2Fdocs`))).toBe('/docs');
    for (const refused of [
      '//evil.example',
      'https://evil.example',
      '/\\evil',
      '"><script>alert(1)</script>',
    ]) {
      const html = await prompt(`${UI}?next=${encodeURIComponent(refused)}`);
      expect(hiddenNext(html), refused).toBeUndefined();
      expect(html).not.toContain('evil');
      expect(html).not.toContain('<script');
    }
  });
});

describe('the page escapes what it shows', () => {
  it('a next with markup stays text in its attribute', () => {
    const html = tokenPage({ action: UI, wrong: false, next: `"><script>alert('x')</script>&` });
    expect(html).not.toContain('<script');
    expect(hiddenNext(html)).toBe('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
  });
});

describe('/docs and the control document', () => {
  it('the docs page links its notice to the token page, which comes back to the control document', async () => {
    const link = /<a id="token-link" href="([^"]+)">/.exec(DOCS_PAGE)?.[1] ?? '';
    const url = new URL(link, 'http://sandbox.test');
    expect(url.pathname).toBe(UI);
    expect(url.searchParams.get('next')).toBe(CONTROL_DOCS_URL);
    expect(DOCS_PAGE).toContain('The control document needs the control token');
    // The page itself is open; the control document needs the token, and the cookie opens it.
    expect((await get('/docs', BROWSER)).status).toBe(200);
    await expectEnvelope('/__sandbox/openapi.json', { accept: 'application/json' });
    const res = await get('/__sandbox/openapi.json', { cookie: `sandbox_token=${TOKEN}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
  });
});

describe('an isolated sandbox’s dashboard, behind the same token', () => {
  it('takes the token into a cookie for the isolated paths, which opens its page and the assets it loads', async () => {
    const world = await sandbox.isolate({ id: 'behind-token' });
    try {
      const base = '/sandboxes/behind-token';
      const taken = await sandbox.app.request(`${base}${UI}`, {
        method: 'POST',
        headers: { ...FORM, ...BROWSER },
        body: new URLSearchParams({ token: TOKEN }).toString(),
      });
      expect(taken.status).toBe(303);
      expect(taken.headers.get('set-cookie')).toBe(
        `sandbox_token=${TOKEN}; Path=/sandboxes; HttpOnly; SameSite=Strict`,
      );
      const cookie = { ...BROWSER, cookie: `sandbox_token=${TOKEN}` };
      const page = await get(`${base}${UI}`, cookie);
      expect(page.status).toBe(200);
      const html = await page.text();
      // Every asset the page loads is under the cookie's Path, so the browser sends it, and it opens them.
      const assets = [...html.matchAll(/(?:href|src)="([^"]*\/assets\/[^"]*)"/g)].map((m) => m[1] ?? '');
      expect(assets).toEqual([`${base}${UI}/assets/style.css`, `${base}${UI}/assets/app.js`]);
      for (const asset of assets) {
        expect(asset.startsWith('/sandboxes/'), asset).toBe(true);
        expect((await get(asset, cookie)).status, asset).toBe(200);
        expect((await get(asset)).status, asset).toBe(401);
      }
    } finally {
      await world.dispose();
    }
  });
});
