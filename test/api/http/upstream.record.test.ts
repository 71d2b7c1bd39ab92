import { execFileSync } from 'node:child_process';
import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.js';
import { API_PREFIX } from '../../../src/contract/mounts.js';
import { systemClock } from '../../../src/domain/clock.js';
import { createSandbox, type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { parseScenario } from '../../../src/scenarios/library.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { FaultyFileSystem } from '../../support/faulty-fs.js';
import { A, call, memorySandbox, schemeA } from '../../support/sandbox.js';
import { startFakeUpstream } from '../../support/upstream.js';

// `--record FILE` with `--upstream`: what the real bank answered, as a scenario of custom answers that
// `--scenario FILE` replays offline, with every secret-looking value masked. The bank here is another sandbox of the
// same build, on a real port.

const SIGNIN = '/api/v1/auth/signin';
const KEYS = '/api/v1/clients/settings/get-keys';
const DETAILS = '/api/v1/clients/business/details';
const ACCOUNT = '/api/v1/clients/business/account-details';

const { later } = closedAfterEachTest();

let bank: RunningSandbox;
let dir: string;
beforeAll(async () => {
  bank = await startSandbox({ inMemory: true, port: 0, quiet: true, log: () => undefined }, systemClock);
  dir = await mkdtemp(join(tmpdir(), 'record-'));
});
afterAll(async () => {
  await bank.close();
  await rm(dir, { recursive: true, force: true });
});

const upstream = () => `${bank.url}${API_PREFIX}`;

/** Every string of a parsed document, keys included. */
function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      textsOf(item, out);
    }
  return out;
}

/** A log that keeps its lines, and a promise of the first line that holds `text`. */
function watchedLog(text: string) {
  const lines: string[] = [];
  let seen: (line: string) => void = () => undefined;
  const first = new Promise<string>((resolve) => {
    seen = resolve;
  });
  const log = (line: string) => {
    lines.push(line);
    if (line.includes(text)) seen(line);
  };
  return { lines, log, first };
}

describe('--record: what the upstream answered, written as a scenario', () => {
  it('records each answer as a custom answer, its secrets masked, and --scenario FILE replays it offline', async () => {
    const file = join(dir, 'bank-run.json');
    const lines: string[] = [];
    const proxy = await memorySandbox({
      upstream: upstream(),
      record: file,
      log: (line) => lines.push(line),
    });
    const signin = await call(proxy, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
    });
    const token = String((signin.body.data as { accessToken: string }).accessToken);
    const headers = schemeA(token, A.secretKey, A.a1.id);
    const keys = await call(proxy, 'GET', KEYS, { headers });
    const details = await call(proxy, 'GET', DETAILS, { headers });
    const noAuth = await call(proxy, 'GET', ACCOUNT);
    const account = await call(proxy, 'GET', ACCOUNT, { headers });
    await call(proxy, 'GET', ACCOUNT, { headers });
    expect([signin.status, keys.status, details.status, noAuth.status, account.status]).toEqual([
      200, 200, 200, 401, 200,
    ]);
    await proxy.close();

    const text = await readFile(file, 'utf8');
    const recorded = parseScenario(JSON.parse(text), file);
    expect(recorded).toMatchObject({ name: 'bank-run', extends: 'default' });
    expect(recorded.description).toContain(`What ${upstream()} answered: 6 answers`);
    // Nothing secret, in any field: the token, the keys, the password, the BVN.
    const bvn = (details.body.data as { bvn: string }).bvn;
    for (const secret of [token, A.secretKey, A.publicKey, A.webhookAuthKey, A.owner.password, bvn])
      expect(text).not.toContain(secret);
    const texts = textsOf(JSON.parse(text));
    expect(texts).toContain(`****${token.slice(-4)}`);
    expect(texts).toContain(`****${A.secretKey.slice(-4)}`);
    expect(texts).toContain(`****${bvn.slice(-4)}`);
    // The ids the app sends back are kept.
    expect(texts).toContain(A.a1.id);
    // One rule per answer in the order they came; the two equal ones to the account details are one run, and the
    // 401 before it applies once.
    expect(recorded.rules.map((r) => [r.match.method, r.match.path, r.effect.http?.status, r.times])).toEqual(
      [
        ['POST', '^/api/v1/auth/signin$', 200, undefined],
        ['GET', '^/api/v1/clients/settings/get-keys$', 200, undefined],
        ['GET', '^/api/v1/clients/business/details$', 200, undefined],
        ['GET', '^/api/v1/clients/business/account-details$', 401, 1],
        ['GET', '^/api/v1/clients/business/account-details$', 200, undefined],
      ],
    );

    // Offline: no upstream, the recording as the start-up scenario. The same calls get what the bank answered.
    const replay = await memorySandbox({ scenario: file });
    later(() => replay.close());
    expect((await call(replay, 'GET', ACCOUNT)).body).toEqual(noAuth.body);
    expect((await call(replay, 'GET', ACCOUNT)).body).toEqual(account.body);
    expect((await call(replay, 'GET', ACCOUNT)).body).toEqual(account.body);
    const replayed = await call(replay, 'GET', DETAILS);
    expect(replayed.body).toEqual({
      ...details.body,
      data: { ...(details.body.data as object), bvn: `****${bvn.slice(-4)}` },
    });
    // What was not recorded is the emulation's, the magic values of `default` included.
    expect((await call(replay, 'GET', '/api/v1/clients/business/customers')).status).toBe(401);
  });

  it('writes the file once the sandbox has started, then again while it runs, without waiting for the close', async () => {
    const fs = new FaultyFileSystem();
    const file = join(dir, 'incremental.json');
    const proxy = await createSandbox(
      { inMemory: true, upstream: upstream(), record: file, log: () => undefined },
      systemClock,
      { storeFs: fs },
    );
    later(() => proxy.close());
    // The empty recording is there from the start: this run's, not an earlier one.
    expect(parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules).toEqual([]);
    // The next write is stopped just before its rename, when its temporary file is whole.
    const renamed = fs.hold('rename', file);
    await call(proxy, 'GET', ACCOUNT);
    await renamed.reached;
    const written = `${file}.tmp`;
    expect(parseScenario(JSON.parse(await readFile(written, 'utf8')), file).rules).toHaveLength(1);
    renamed.release();
    await proxy.close();
    expect(parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules).toHaveLength(1);
  });

  it('writes at most once per interval while answers come, and whatever is left at the close', async () => {
    const fs = new FaultyFileSystem();
    const file = join(dir, 'throttled.json');
    const writes = () => fs.calls.filter((c) => c === `rename ${file}`).length;
    // An interval no test outlasts: every write after the first is the close's.
    const proxy = await createSandbox(
      { inMemory: true, upstream: upstream(), record: file, log: () => undefined },
      systemClock,
      { storeFs: fs, recordingWriteEveryMs: 3_600_000 },
    );
    later(() => proxy.close());
    expect(writes()).toBe(1);
    // Twenty equal answers (one rule, counted), then five new ones: no write of its own for any of them.
    for (let i = 0; i < 20; i++) expect((await call(proxy, 'GET', ACCOUNT)).status).toBe(401);
    for (const path of [DETAILS, KEYS, `${ACCOUNT}/x`, `${DETAILS}/y`, `${KEYS}/z`])
      await call(proxy, 'GET', path);
    expect(writes()).toBe(1);
    await proxy.close();
    expect(writes()).toBe(2);
    const recorded = parseScenario(JSON.parse(await readFile(file, 'utf8')), file);
    expect(recorded.rules).toHaveLength(6);
    expect(recorded.description).toContain('25 answers');
  });

  it('masks a path segment that looks like a key, and keeps a body with `{{` as text, not templates', async () => {
    const fake = await startFakeUpstream((req) =>
      req.url.includes('templated')
        ? { status: 200, body: { message: 'Hello {{name}}', token: 'tok_12345678901234567890abcdef' } }
        : { status: 404, body: { status: false, message: 'Not found', data: null } },
    );
    later(fake.close);
    const file = join(dir, 'masked.json');
    const proxy = await memorySandbox({ upstream: fake.base, record: file });
    const key = 'sk_live_0123456789abcdef0123456789abcdef';
    await call(proxy, 'GET', `/api/v1/clients/members/${key}/templated`);
    await proxy.close();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain('tok_12345678901234567890abcdef');
    const [rule] = parseScenario(JSON.parse(text), file).rules;
    expect(rule?.match.path).toBe('^/api/v1/clients/members/[^/]+/templated$');
    expect(rule?.effect.http).toEqual({
      status: 200,
      bodyText: JSON.stringify({ message: 'Hello {{name}}', token: '****cdef' }),
    });
    // And it replays: the path with any key, the text as it was.
    const replay = await memorySandbox({ scenario: file });
    later(() => replay.close());
    const res = await replay.app.request('/api/v1/clients/members/another-key/templated');
    expect(await res.json()).toEqual({ message: 'Hello {{name}}', token: '****cdef' });
  });

  it('leaves out an answer that is not JSON, and says so in the log', async () => {
    const fake = await startFakeUpstream(() => ({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html>Bad gateway</html>',
    }));
    later(fake.close);
    const file = join(dir, 'html.json');
    const lines: string[] = [];
    const proxy = await memorySandbox({ upstream: fake.base, record: file, log: (line) => lines.push(line) });
    await call(proxy, 'GET', ACCOUNT);
    await proxy.close();
    expect(parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules).toEqual([]);
    expect(lines.join('\n')).toMatch(
      /recording\.skipped .*GET \/api\/v1\/clients\/business\/account-details 502 not recorded: its body is not JSON/,
    );
  });

  it('holds at most 200 rules, and says once that it is full', async () => {
    const fake = await startFakeUpstream((req) => ({ status: 200, body: { at: req.url } }));
    later(fake.close);
    const file = join(dir, 'full.json');
    const lines: string[] = [];
    const proxy = await memorySandbox({ upstream: fake.base, record: file, log: (line) => lines.push(line) });
    for (let i = 0; i < 203; i++) await call(proxy, 'GET', `/api/v1/p${i}`);
    await proxy.close();
    expect(parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules).toHaveLength(200);
    expect(lines.filter((line) => line.includes('the recording holds 200 rules'))).toHaveLength(1);
  });

  it('writes through a link to the file it leads to, the link kept', async () => {
    const target = join(dir, 'target.json');
    const link = join(dir, 'link.json');
    await writeFile(target, '{}');
    await symlink(target, link);
    const proxy = await memorySandbox({ upstream: upstream(), record: link });
    await call(proxy, 'GET', ACCOUNT);
    await proxy.close();
    expect(parseScenario(JSON.parse(await readFile(target, 'utf8')), target).rules).toHaveLength(1);
    expect((await readFile(link, 'utf8')) === (await readFile(target, 'utf8'))).toBe(true);
  });
});

describe('--record: nothing secret in any field', () => {
  it('masks a field named for a secret whatever its type, and every echo of the app’s own credentials', async () => {
    const credentials = {
      authorization: 'Bearer app-token-0001',
      SECRET_KEY: 'app-secret-0002',
      cookie: 'session=app-cookie-0003',
    };
    const fake = await startFakeUpstream(() => ({
      status: 200,
      body: {
        status: true,
        message: 'Transfer queued',
        data: {
          transactionPin: 1234,
          PIN_CODE: '4321',
          OTPCode: '998877',
          apiKeyId: 'kid_0123456789',
          keyword: 'kept',
          shippingAddress: '12 Marina, Lagos',
          seen: {
            authorization: credentials.authorization,
            bearer: 'app-token-0001',
            sent: `you sent ${credentials.SECRET_KEY}`,
            jar: credentials.cookie,
          },
        },
      },
    }));
    later(fake.close);
    const file = join(dir, 'secrets.json');
    const proxy = await memorySandbox({ upstream: fake.base, record: file });
    const res = await call(proxy, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers: credentials,
      body: { amount: 100 },
    });
    expect(res.status).toBe(200);
    await proxy.close();
    const text = await readFile(file, 'utf8');
    for (const secret of [
      '1234',
      '4321',
      '998877',
      'kid_0123456789',
      'app-token-0001',
      'app-secret-0002',
      'app-cookie-0003',
    ])
      expect(text).not.toContain(secret);
    const [rule] = parseScenario(JSON.parse(text), file).rules;
    expect(rule?.effect.http?.body).toMatchObject({
      data: {
        transactionPin: '****',
        PIN_CODE: '****',
        OTPCode: '****',
        apiKeyId: '****6789',
        keyword: 'kept',
        shippingAddress: '12 Marina, Lagos',
        seen: { authorization: '****', bearer: '****', sent: 'you sent ****', jar: '****' },
      },
    });
  });
});

describe('--record: a start that is refused', () => {
  /** An earlier run's recording, with spacing no write of the sandbox makes, so a rewrite of it shows. */
  const earlier =
    '{"name":"earlier","description":"kept",  "rules":[{"on":"http","match":{"path":"^/x$"},"effect":{"http":{"status":200}}}]}\n';

  it.each([
    ['an unknown --scenario', 'scenario'],
    ['a port in use', 'port'],
    ['a state file in use', 'lock'],
  ])('for %s leaves an earlier recording byte for byte as it was', async (_why, refusal) => {
    const folder = await mkdtemp(join(dir, `refused-${refusal}-`));
    const file = join(folder, 'run.json');
    await writeFile(file, earlier);
    const settings = { upstream: upstream(), record: file, log: () => undefined };
    if (refusal === 'scenario') {
      await expect(memorySandbox({ ...settings, scenario: 'flakey-bank' })).rejects.toThrow(/flakey-bank/);
    } else if (refusal === 'port') {
      // The port of the sandbox that stands in for the bank.
      const port = Number(new URL(bank.url).port);
      await expect(startSandbox({ ...settings, inMemory: true, port })).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } else {
      const data = join(folder, 'db.json');
      const holder = await createSandbox({ data, log: () => undefined });
      later(() => holder.close());
      await expect(createSandbox({ ...settings, data })).rejects.toThrow(/in use/);
    }
    expect(await readFile(file, 'utf8')).toBe(earlier);
    // And nothing beside it: the check that the folder takes a file removed what it made.
    expect((await readdir(folder)).filter((name) => name.startsWith('run.json'))).toEqual(['run.json']);
  });
});

describe('--record: a file it cannot write', () => {
  it('stops the start with one line naming --record, before any request is forwarded', async () => {
    const fake = await startFakeUpstream(() => ({ status: 200, body: {} }));
    later(fake.close);
    const notADir = join(dir, 'plain-file');
    await writeFile(notADir, 'x');
    const started = memorySandbox({ upstream: fake.base, record: join(notADir, 'run.json') });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/^--record .*run\.json cannot be written: ENOTDIR/);
    // A folder where the file would go: no write could ever rename over it.
    const folder = join(dir, 'folder.json');
    await mkdir(folder);
    await expect(memorySandbox({ upstream: fake.base, record: folder })).rejects.toThrow(
      /^--record .*folder\.json cannot be written: EISDIR/,
    );
    expect(fake.received).toEqual([]);
  });

  it('is refused without --upstream, and when it is not a .json file', async () => {
    await expect(memorySandbox({ record: join(dir, 'x.json') })).rejects.toThrow(
      'invalid option record: needs --upstream: it records what the real bank answers',
    );
    await expect(memorySandbox({ upstream: upstream(), record: join(dir, 'x.txt') })).rejects.toThrow(
      'invalid option record: must be a .json file: --scenario FILE replays it',
    );
  });

  it('a write the disk refuses is logged once, the answers still go to the app, and the next write catches up', async () => {
    const fs = new FaultyFileSystem();
    const file = join(dir, 'faulty.json');
    const { lines, log, first } = watchedLog('recording.write_failed');
    const proxy = await createSandbox(
      { inMemory: true, upstream: upstream(), record: file, log },
      systemClock,
      { storeFs: fs },
    );
    later(() => proxy.close());
    // The disk is full: every write of the recording fails, and says so once.
    fs.spaceLeft = 0;
    expect((await call(proxy, 'GET', ACCOUNT)).status).toBe(401);
    expect((await call(proxy, 'GET', DETAILS)).status).toBe(401);
    expect(await first).toContain('ENOSPC');
    // Room again: the next write holds every answer so far (at the latest the one the close tries).
    fs.heal();
    expect((await call(proxy, 'GET', KEYS)).status).toBe(401);
    await proxy.close();
    expect(parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules).toHaveLength(3);
    expect(lines.filter((line) => line.includes('recording.write_failed'))).toHaveLength(1);
  });
});

/** A 2 MiB tmpfs of the test's own, or why one cannot be mounted (it needs root). */
async function smallDisk(): Promise<{ path: string; unmount: () => Promise<void> } | string> {
  const path = join(dir, 'disk');
  await mkdir(path);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', path], { stdio: 'pipe' });
  } catch (error) {
    return `mounting a tmpfs needs root (${String((error as Error).message).split('\n')[0]})`;
  }
  return {
    path,
    unmount: async () => {
      execFileSync('umount', [path]);
    },
  };
}

describe('--record on a disk that really fills up', () => {
  it('logs the failed write once, answers the app all along, and writes everything once there is room', async (context) => {
    const disk = await smallDisk();
    if (typeof disk === 'string') return context.skip(disk);
    later(disk.unmount);
    const file = join(disk.path, 'run.json');
    const { lines, log, first } = watchedLog('recording.write_failed');
    const proxy = await memorySandbox({ upstream: upstream(), record: file, log });
    later(() => proxy.close());
    // Another file takes all the room left.
    const filler = join(disk.path, 'filler');
    const chunk = Buffer.alloc(16 * 1024, 120);
    for (;;) {
      try {
        await appendFile(filler, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
    for (const path of [ACCOUNT, DETAILS, KEYS]) expect((await call(proxy, 'GET', path)).status).toBe(401);
    expect(await first).toContain('ENOSPC');
    await unlink(filler);
    await proxy.close();
    const rules = parseScenario(JSON.parse(await readFile(file, 'utf8')), file).rules;
    expect(rules.map((r) => r.match.path)).toEqual([
      '^/api/v1/clients/business/account-details$',
      '^/api/v1/clients/business/details$',
      '^/api/v1/clients/settings/get-keys$',
    ]);
    expect(lines.filter((line) => line.includes('recording.write_failed'))).toHaveLength(1);
  });
});
