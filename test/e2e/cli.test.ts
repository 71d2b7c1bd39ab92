import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { signIn as signedIn } from '../../src/contract/api/auth.js';
import { requestEntry } from '../../src/contract/control/requests.js';
import { embeddedFixturesDir, type Fixtures } from '../../src/store/fixtures.js';
import { dataOf, pageOf } from '../support/answers.js';
import { http, runCli, type SandboxProcess, startProcess, stop, waitForOutput } from '../support/process.js';
import { A } from '../support/sandbox.js';
import { stateOf } from '../support/store.js';

/**
 * A directory of the test's own and a `start` whose processes are killed once the test finishes. Each test
 * opens one, so that the tests can run at the same time: most of their time is spent waiting for a process to
 * start, to write or to exit.
 */
async function opened({ onTestFinished }: TestContext) {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-e2e-'));
  const running: SandboxProcess[] = [];
  onTestFinished(async () => {
    for (const p of running)
      if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  const start = async (args: string[], cwd?: string) => {
    const p = await startProcess(args, { cwd });
    running.push(p);
    return p;
  };
  return { dir, start };
}

async function signIn(p: SandboxProcess) {
  const res = await http(p, 'POST', '/api/v1/auth/signin', {
    body: { email: A.owner.email, password: A.owner.password },
  });
  expect(res.status).toBe(200);
  const token = dataOf(res, signedIn).accessToken;
  return { authorization: `Bearer ${token}`, SECRET_KEY: A.secretKey, businessId: A.a1.id };
}

describe.concurrent('the CLI', () => {
  it('prints the URL, the data file and the fixture credentials, and creates .sandbox/db.json by default', async (context) => {
    const { dir, start } = await opened(context);
    const p = await start([], dir);
    expect(p.stdout()).toContain('/api/v1');
    expect(p.stdout()).toContain('.sandbox/db.json');
    expect(p.stdout()).toContain(A.owner.email);
    expect(p.stdout()).toContain(A.secretKey);
    expect(existsSync(join(dir, '.sandbox', 'db.json'))).toBe(true);
    expect((await http(p, 'GET', '/__sandbox/health')).body).toMatchObject({ status: 'ok' });
  });

  it('keeps acknowledged changes across a real restart', async (context) => {
    const { dir, start } = await opened(context);
    const data = join(dir, 'db.json');
    const first = await start(['--data', data]);
    const headers = await signIn(first);
    const token = headers.authorization;
    const patch = await http(first, 'PATCH', '/api/v1/clients/settings/update-webhook-url', {
      headers,
      body: { webhookUrl: 'https://hooks.example.com/in' },
    });
    expect(patch.status).toBe(200);
    const created = await http(first, 'POST', '/api/v1/clients/business', {
      headers,
      body: { businessName: 'Kept Ltd', countryId: 'NG', isNewBusiness: true },
    });
    expect(created.status).toBe(201);
    expect(await stop(first)).toEqual({ code: 0, signal: null });

    const second = await start(['--data', data]);
    const state = stateOf(await http(second, 'GET', '/__sandbox/state'));
    expect(state.collections.clients.find((c) => c.id === A.id)?.webhookUrl).toBe(
      'https://hooks.example.com/in',
    );
    expect(state.collections.businesses.map((b) => b.businessName)).toContain('Kept Ltd');
    // The token key is part of the state: a token from before the restart still works.
    const list = await http(second, 'GET', '/api/v1/clients/business', {
      headers: { authorization: token, SECRET_KEY: A.secretKey, businessId: A.a1.id },
    });
    expect(list.status).toBe(200);
    // Two real starts: on a shared machine under load each can take several seconds.
  }, 60_000);

  it('holds every acknowledged mutation after kill -9 in the middle of a burst', async (context) => {
    const { dir, start } = await opened(context);
    const data = join(dir, 'db.json');
    const first = await start(['--data', data]);
    const headers = await signIn(first);
    const acknowledged: string[] = [];
    const burst = Array.from({ length: 150 }, (_, i) =>
      http(first, 'POST', '/api/v1/clients/business', {
        headers,
        body: { businessName: `Burst ${i}`, countryId: 'NG', isNewBusiness: true },
      })
        .then((res) => {
          if (res.status === 201) acknowledged.push(`Burst ${i}`);
        })
        .catch(() => undefined),
    );
    // Kill as soon as a part of the burst is acknowledged, with the rest still in flight.
    await new Promise<void>((resolve) => {
      const check = () => (acknowledged.length >= 40 ? resolve() : setImmediate(check));
      check();
    });
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(burst);
    const seen = [...acknowledged];

    const second = await start(['--data', data]);
    const state = stateOf(await http(second, 'GET', '/__sandbox/state'));
    const names = new Set(state.collections.businesses.map((b) => b.businessName));
    for (const name of seen) expect(names.has(name)).toBe(true);
    // Two real starts: on a shared machine under load each can take several seconds.
  }, 60_000);

  it.for(['SIGTERM', 'SIGINT'] as const)('exits 0 on %s', async (signal, context) => {
    const { dir, start } = await opened(context);
    const p = await start(['--data', join(dir, 'db.json')]);
    expect(await stop(p, signal)).toEqual({ code: 0, signal: null });
  });

  it('--seed reproduces identical fixtures; another seed gives other ones', async (context) => {
    const { start } = await opened(context);
    const [a, b, c] = await Promise.all([
      start(['--in-memory', '--seed', '7']),
      start(['--in-memory', '--seed', '7']),
      start(['--in-memory', '--seed', '8']),
    ]);
    const [sa, sb, sc] = await Promise.all([a, b, c].map((p) => http(p, 'GET', '/__sandbox/state')));
    expect(JSON.stringify(sa?.body)).toBe(JSON.stringify(sb?.body));
    expect(JSON.stringify(sc?.body)).not.toBe(JSON.stringify(sa?.body));
  });

  it.for<[string[], RegExp]>([
    [['--port', 'abc'], /invalid setting --port \(PORT\)/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--fixtures', '/nonexistent/fixtures'], /fixture .*banks\.json/],
    [['--scenario', 'nope'], /no ready scenario named "nope" \(ready: default, /],
    [['--scenario', 'flaky'], /no ready scenario named "flaky" \(ready: default, /],
    [
      ['--scenario', 'webhook-receiver-dwn'],
      /no ready scenario named "webhook-receiver-dwn" \(did you mean "webhook-receiver-down"\? ready: /,
    ],
    [['--scenario', '../fixtures/banks'], /--scenario takes a ready scenario's name or a \.json file/],
    [['--scenario', '/nonexistent/scenario.json'], /scenario \/nonexistent\/scenario\.json/],
    // The time settings whose arithmetic would leave a Date or a timer fail by the same path as --port: each one is
    // in test/unit/config.test.ts, with its message.
  ])('%j exits 2 with one clear line', async ([args, message], context) => {
    const { dir } = await opened(context);
    const res = await runCli(args, { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an --upstream URL with a user and a password exits 2 with one line naming the setting, the password nowhere', async (context) => {
    const { dir } = await opened(context);
    const upstream = 'https://bankUser42:S3cretPassw0rd@bank.example/api/v1';
    for (const [args, env] of [
      [['--upstream', upstream], {}],
      [[], { SANDBOX_UPSTREAM: upstream }],
    ] as const) {
      const res = await runCli([...args], { cwd: dir, env });
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(
        'banking-sandbox: invalid setting --upstream (SANDBOX_UPSTREAM): must not hold a user or a password: credentials belong in headers, which the app sends and the sandbox forwards as they are\n',
      );
      expect(res.stdout).toBe('');
    }
  });

  it('a scenario file with a bad field exits 2 naming the field', async (context) => {
    const { dir } = await opened(context);
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ name: 'bad', description: 'x', rules: [{ on: 'transfer', effect: { fail: {} } }] }),
    );
    const res = await runCli(['--scenario', file], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/rules\[0\]\.effect\.fail\.errorCode/);
  });

  it('a --fixtures folder whose history does not add up exits 2 with one line naming the file and the record', async (context) => {
    const { dir } = await opened(context);
    const fixtures = join(dir, 'fixtures');
    await cp(embeddedFixturesDir, fixtures, { recursive: true });
    const file = join(fixtures, 'clients.json');
    const clients = JSON.parse(await readFile(file, 'utf8')) as Fixtures['clients'];
    const a1 = clients[0]?.businesses[0];
    if (!a1) throw new Error('the fixtures have no business A1');
    // Its payments credit more than this: the opening balance before them would be negative.
    a1.balance = 100;
    await writeFile(file, JSON.stringify(clients));
    const res = await runCli(['--in-memory', '--fixtures', fixtures], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(
      /^banking-sandbox: fixture .*clients\.json: 0\.businesses\.0\.balance: 100 is less than business \S+'s payments credit/,
    );
    expect(res.stdout).toBe('');
  });

  it('a --record file that cannot be written exits 2 with one line, before it listens', async (context) => {
    const { dir } = await opened(context);
    const plain = join(dir, 'plain');
    await writeFile(plain, 'x');
    const upstream = 'http://127.0.0.1:9/api/v1';
    for (const [args, line] of [
      [
        ['--upstream', upstream, '--record', join(plain, 'run.json')],
        /^banking-sandbox: --record .*run\.json cannot be written: ENOTDIR/,
      ],
      [
        ['--record', join(dir, 'run.json')],
        /^banking-sandbox: invalid setting --record \(SANDBOX_RECORD\): needs --upstream/,
      ],
    ] as const) {
      const res = await runCli([...args, '--in-memory'], { cwd: dir });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(line);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stdout).toBe('');
    }
  });

  it('a scenario file with a template that names nothing exits 2 with one line naming the field', async (context) => {
    const { dir } = await opened(context);
    const file = join(dir, 'bad-template.json');
    const answer = { status: 200, body: { data: { ref: '{{request.bodyy.ref}}' } } };
    await writeFile(
      file,
      JSON.stringify({ name: 'bad', description: 'x', rules: [{ on: 'http', effect: { http: answer } }] }),
    );
    const res = await runCli(['--scenario', file], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('rules[0].effect.http.body.data.ref: {{request.bodyy.ref}} names nothing');
  });

  it('starts with a ready scenario chosen by name', async (context) => {
    const { start } = await opened(context);
    const p = await start(['--in-memory', '--scenario', 'happy-path']);
    const scenario = await http(p, 'GET', '/__sandbox/scenario');
    expect(scenario.body.data).toMatchObject({ startup: 'happy-path', name: 'happy-path', rules: [] });
  });

  // Node's own recursive mkdir tries for ever where /proc refuses a folder with ENOENT: the start hung, silent.
  it.skipIf(!existsSync('/proc/self'))(
    'a state folder that cannot be made (under /proc) stops the start with one line, exit 1',
    async (context) => {
      const { dir } = await opened(context);
      const res = await runCli(['--data', '/proc/no-such-folder/db.json'], { cwd: dir });
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        "banking-sandbox: cannot start: ENOENT: no such file or directory, mkdir '/proc/no-such-folder'",
      );
    },
  );

  it('a bad environment variable exits 2 too', async (context) => {
    const { dir } = await opened(context);
    const res = await runCli([], { cwd: dir, env: { PORT: '99999' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--port \(PORT\)/);
  });

  it('logs one line per request, pretty or JSON, and nothing with --quiet', async (context) => {
    const { start } = await opened(context);
    const [pretty, json, quiet] = await Promise.all([
      start(['--in-memory']),
      start(['--in-memory', '--log-format', 'json']),
      start(['--in-memory', '--quiet']),
    ]);
    await http(pretty, 'GET', '/__sandbox/health', { headers: { 'x-request-id': 'log-check-1' } });
    expect(await waitForOutput(pretty, /GET +\/__sandbox\/health 200 [\d.]+ms log-check-1/)).toBeTruthy();

    await http(json, 'GET', '/api/v1/nowhere', { headers: { 'x-request-id': 'log-check-2' } });
    const line = await waitForOutput(json, /\{[^\n]*"requestId":"log-check-2"[^\n]*\}/);
    expect(JSON.parse(line)).toMatchObject({ method: 'GET', path: '/api/v1/nowhere', status: 404 });

    await http(quiet, 'GET', '/__sandbox/health', { headers: { 'x-request-id': 'log-check-3' } });
    // The journal has it, so the request was answered; a line would have been written in the same turn.
    const journal = await http(quiet, 'GET', '/__sandbox/requests?path=health');
    expect(pageOf(journal, requestEntry).data[0]?.requestId).toBe('log-check-3');
    expect(quiet.stdout()).not.toContain('log-check-3');
    expect(quiet.stdout().trim().split('\n')).toHaveLength(1);
  });

  it.for([
    [
      'a multipart registration',
      'PATCH',
      '/api/v1/clients/business/complete-registration',
      'multipart/form-data; boundary=abort',
      '--abort\r\nContent-Disposition: form-data; name="photoId"; filename="id.png"\r\nContent-Type: image/png\r\n\r\n',
      false,
    ],
    ['a big JSON body', 'PUT', '/__sandbox/state', 'application/json', '{"version":1,"collections":{', false],
    ['a chunked JSON body', 'POST', '/api/v1/clients/business', 'application/json', '{"businessName":', true],
  ] as const)(
    '%s the client aborts is recorded as 499 and logged in one line, without a stack trace',
    async ([_name, method, path, type, part, chunked], context) => {
      const { start } = await opened(context);
      const p = await start(['--in-memory']);
      const headers = await signIn(p);
      const requestId = `aborted-${method.toLowerCase()}-${chunked ? 'chunked' : 'sized'}`;
      const url = new URL(p.url);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          const head = [
            `${method} ${path} HTTP/1.1`,
            `Host: ${url.host}`,
            `Authorization: ${headers.authorization}`,
            `SECRET_KEY: ${headers.SECRET_KEY}`,
            `businessId: ${A.a1.id}`,
            `x-request-id: ${requestId}`,
            `Content-Type: ${type}`,
            chunked ? 'Transfer-Encoding: chunked' : 'Content-Length: 5000000',
          ];
          const body = chunked ? `${part.length.toString(16)}\r\n${part}\r\n` : part;
          // Half the request, then the connection goes: the body never completes.
          socket.write(`${head.join('\r\n')}\r\n\r\n${body}`, () => {
            socket.destroy();
            resolve();
          });
        });
        socket.on('error', reject);
      });
      const line = await waitForOutput(p, new RegExp(`[^\\n]*${requestId}`));
      expect(line).toMatch(
        new RegExp(`${method} +${path.replaceAll('/', '\\/')} 499 [\\d.]+ms ${requestId}$`),
      );
      const journal = await http(p, 'GET', `/__sandbox/requests?status=499`);
      expect(journal.body.data).toEqual([expect.objectContaining({ method, path, status: 499, requestId })]);
      // One line for it, on standard output, and nothing on standard error (no stack trace, no error line).
      expect(
        p
          .stdout()
          .split('\n')
          .filter((l) => l.includes(requestId)),
      ).toHaveLength(1);
      expect(p.stderr()).toBe('');
    },
  );

  it('--help lists every setting and the commands, and exits 0', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data',
      '--in-memory',
      '--fixtures',
      '--seed',
      '--control-token',
    ]) {
      expect(res.stdout).toContain(flag);
    }
    for (const name of Object.keys(commands)) expect(res.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });
});
