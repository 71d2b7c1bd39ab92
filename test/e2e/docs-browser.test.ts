import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/control/sandbox/schemas.js';
import { DASHBOARD_ASSETS } from '../../src/dashboard/routes.js';
import { DOCS_ASSETS } from '../../src/openapi/assets.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox.js';
import { answerOf, bodyOf } from '../support/answers.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const ROOT = join(import.meta.dirname, '..', '..');

/** Anything but the sandbox itself (and inline data) would need the internet the page must not need. */
const isLocal = (url: string, base: string) =>
  url.startsWith(`${base}/`) || url.startsWith('data:') || url.startsWith('blob:');

describe('the API reference page in a browser', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ inMemory: true, port: 0, log: () => undefined });
  });
  afterAll(() => sandbox.close());

  it.skipIf(!hasChromium)(
    `renders both documents in headless Chromium with no request outside 127.0.0.1${hasChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`}`,
    async () => {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const profile = await mkdtemp(join(tmpdir(), 'sandbox-docs-chromium-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      const outside: string[] = [];
      const failed: string[] = [];
      const errors: string[] = [];
      try {
        // Every request of the page passes here: the sandbox's own go through, anything else is noted and refused.
        await context.route('**/*', (route) => {
          const url = route.request().url();
          if (isLocal(url, sandbox.url)) return route.continue();
          outside.push(url);
          return route.abort();
        });
        context.on('response', (res) => {
          if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
        });
        const page = context.pages()[0] ?? (await context.newPage());
        page.on('pageerror', (error) => errors.push(error.message));

        const loaded = await page.goto(`${sandbox.url}/docs`);
        expect(loaded?.status()).toBe(200);
        await page
          .getByText('Process a bulk transfer')
          .first()
          .waitFor({ state: 'visible', timeout: 20_000 });
        // Swagger UI breaks paths with zero-width spaces; the path itself is in `data-path`.
        const path = page.locator('[data-path="/clients/business/customers/funds/bulk-transfer/process"]');
        expect(await path.first().isVisible()).toBe(true);
        expect(await page.getByText('Sign in', { exact: true }).first().isVisible()).toBe(true);

        // The other document, through the page's own selector.
        await page.locator('select').first().selectOption({ label: 'Sandbox control (/__sandbox)' });
        await page.getByText('Wait for the queues').first().waitFor({ state: 'visible', timeout: 20_000 });
      } finally {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      }
      expect(outside).toEqual([]);
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
    },
    60_000,
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
