import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../../src/contract/control/sandbox.js';
import { CONTROL_DOCS_URL, CONTROL_DOCUMENT_NAME } from '../../../src/contract/mounts.js';
import { DASHBOARD_ASSETS } from '../../../src/dashboard/app.js';
import { DOCS_ASSETS } from '../../../src/openapi/assets.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { answerOf, bodyOf } from '../../support/answers.js';
import { ARTIFACTS, browserTest, hasChromium, newContext } from '../../support/chromium.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const TOKEN = 'docs-c0ntrol-token';

/** Anything but the sandbox itself (and inline data) would need the internet the page must not need. */
const isLocal = (url: string, base: string) =>
  url.startsWith(`${base}/`) || url.startsWith('data:') || url.startsWith('blob:');

describe('the API reference page in a browser', () => {
  let sandbox: RunningSandbox;
  /** The same, with `--control-token`. */
  let guarded: RunningSandbox;
  let context: BrowserContext | undefined;
  /** Requests the page made outside the sandboxes (refused), since the test began. */
  const outside: string[] = [];

  beforeAll(async () => {
    [sandbox, guarded] = await Promise.all([
      startSandbox({ inMemory: true, port: 0, log: () => undefined }),
      startSandbox({ inMemory: true, port: 0, log: () => undefined, controlToken: TOKEN }),
    ]);
    if (!hasChromium) return;
    // A context of the shared browser, for both tests.
    context = await newContext();
    // Every request of the page passes here: the sandboxes' own go through, anything else is noted and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (isLocal(url, sandbox.url) || isLocal(url, guarded.url)) return route.continue();
      outside.push(url);
      return route.abort();
    });
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all([sandbox?.close(), guarded?.close()]);
  });

  /** A fresh page, with what went wrong on it: answers of 400 and above, and uncaught errors. */
  async function openPage(): Promise<{ page: Page; failed: string[]; errors: string[] }> {
    if (!context) throw new Error('no browser');
    outside.length = 0;
    const page = await context.newPage();
    const failed: string[] = [];
    const errors: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, failed, errors };
  }

  browserTest('renders both documents in headless Chromium with no request outside 127.0.0.1', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { page, failed, errors } = await openPage();
    try {
      const loaded = await page.goto(`${sandbox.url}/docs`);
      expect(loaded?.status()).toBe(200);
      await page.getByText('Process a bulk transfer').first().waitFor({ state: 'visible' });
      // Swagger UI breaks paths with zero-width spaces; the path itself is in `data-path`.
      const path = page.locator('[data-path="/clients/business/customers/funds/bulk-transfer/process"]');
      expect(await path.first().isVisible()).toBe(true);
      expect(await page.getByText('Sign in', { exact: true }).first().isVisible()).toBe(true);

      // The other document, through the page's own selector.
      await page.locator('select').first().selectOption({ label: CONTROL_DOCUMENT_NAME });
      await page.getByText('Wait for the queues').first().waitFor({ state: 'visible' });
      // With no control token, nothing to ask for.
      expect(await page.locator('#token-notice').isVisible()).toBe(false);
    } finally {
      await page.close();
    }
    expect(outside).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });

  browserTest(
    'with --control-token, the control document sends to the token page, which comes back to it',
    async () => {
      const { page, failed, errors } = await openPage();
      // Every URL the page was at: the token is sent in the form's body, so none of them may hold it (the
      // browser's history and a proxy's log keep URLs).
      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(frame.url());
      });
      // And every request it made: the token in no URL, the form POSTed with it in the body.
      const requested: string[] = [];
      const posted: string[] = [];
      page.on('request', (req) => {
        requested.push(req.url());
        if (req.method() === 'POST' && new URL(req.url()).pathname === '/__sandbox/ui')
          posted.push(req.postData() ?? '');
      });
      try {
        // Opened on the control document (the first test chooses it with the page's selector): the bank
        // document is never rendered here, which would only cost time.
        await page.goto(`${guarded.url}${CONTROL_DOCS_URL}`);
        const notice = page.locator('#token-notice');
        await notice.waitFor({ state: 'visible' });
        expect(await notice.textContent()).toContain('The control document needs the control token');

        // The notice's link: the page that asks for the token.
        const asked = page.waitForResponse((res) => new URL(res.url()).pathname === '/__sandbox/ui');
        await page.locator('#token-link').click();
        expect((await asked).status()).toBe(401);
        const field = page.getByLabel('Control token');
        await field.waitFor({ state: 'visible' });
        expect(await page.evaluate('document.activeElement?.id')).toBe('token');
        await mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, 'token-prompt.png'), fullPage: true });

        await field.fill('not-the-token');
        await page.getByRole('button', { name: 'Open' }).click();
        await page.getByText('That token was not right').waitFor({ state: 'visible' });

        await page.getByLabel('Control token').fill(TOKEN);
        await page.getByRole('button', { name: 'Open' }).click();
        await page.waitForURL((url) => url.pathname === '/docs');
        // Back on /docs, on the control document, which now loads with the cookie.
        await page.getByText('Wait for the queues').first().waitFor({ state: 'visible' });
        // The page opened on it: the selector shows it.
        expect(await page.locator('select').first().locator('option:checked').textContent()).toBe(
          CONTROL_DOCUMENT_NAME,
        );
        expect(await notice.isVisible()).toBe(false);
        expect(new URL(page.url()).search).not.toContain(TOKEN);
        expect(visited.length).toBeGreaterThanOrEqual(3);
        expect(visited.filter((url) => url.includes(TOKEN))).toEqual([]);
        expect(requested.filter((url) => url.includes(TOKEN))).toEqual([]);
        expect(posted.map((body) => Object.fromEntries(new URLSearchParams(body)))).toEqual([
          { token: 'not-the-token', next: CONTROL_DOCS_URL },
          { token: TOKEN, next: CONTROL_DOCS_URL },
        ]);
      } finally {
        await page.close();
      }
      expect(outside).toEqual([]);
      // The 401s asked for: the control document before the token, and the token page twice (opened, wrong token).
      expect(failed).toEqual(['401 /__sandbox/openapi.json', '401 /__sandbox/ui', '401 /__sandbox/ui']);
      expect(errors).toEqual([]);
    },
  );
});

describe('the page assets in the built image', () => {
  let dir: string;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('are served from dist/ alone, with no node_modules beside it (as in the Docker image), as are the documents and the dashboard', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-image-'));
    for (const folder of ['dist', 'fixtures', 'scenarios']) {
      await cp(join(ROOT, folder), join(dir, folder), { recursive: true });
    }
    const running = spawn(process.execPath, ['dist/main.js', '--port', '0', '--in-memory'], { cwd: dir });
    child = running;
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      running.stdout?.on('data', (d: Buffer) => {
        out += d;
        const m = /listening on (http:\/\/\S+)\/api\/v1/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      running.on('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening`)));
    });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    const document = bodyOf(await answerOf(await fetch(`${url}/openapi.json`)), openapiDocument);
    expect(document.openapi).toBe('3.1.0');
    for (const [file, type] of Object.entries(DOCS_ASSETS)) {
      const res = await fetch(`${url}/docs/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await res.text()).length).toBeGreaterThan(10_000);
    }
    expect((await fetch(`${url}/__sandbox/ui`)).status).toBe(200);
    for (const [file, type] of Object.entries(DASHBOARD_ASSETS)) {
      const res = await fetch(`${url}/__sandbox/ui/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect((await res.text()).length).toBeGreaterThan(1_000);
    }
  });
});
