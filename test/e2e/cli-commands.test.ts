// The shell commands against one real sandbox process: most run in this process through `run(argv, io)`, a few
// through the built binary for the wiring and the exit codes.
//
// `requests` and `verify` need the journal's routes (`POST /__sandbox/requests/search`, `.../verify`).

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { connectSandbox } from '../../src/client/connect.js';
import type { SandboxHandle } from '../../src/client/handle.js';
import { isValidNuban } from '../../src/domain/nuban.js';
import { appTransfer } from '../support/app-requests.js';
import { runCli, type SandboxProcess, shellCommand, startProcess, stop } from '../support/process.js';
import { startReceiver } from '../support/receiver.js';
import { startFakeUpstream } from '../support/upstream.js';

const TOKEN = 'cli-test-token';
let child: SandboxProcess;
let sandbox: SandboxHandle;
const receiver = await startReceiver([], 500);

beforeAll(async () => {
  child = await startProcess([
    '--in-memory',
    '--quiet',
    '--control-token',
    TOKEN,
    '--webhook-retry-base',
    '10',
  ]);
  sandbox = connectSandbox(child.url, { controlToken: TOKEN });
});
afterAll(async () => {
  await Promise.all([child && stop(child), receiver.close()]);
});

/** Runs a command in this process, against the sandbox unless `--url` is given; the token comes from the env. */
const sh = (...argv: string[]) =>
  shellCommand({ SANDBOX_URL: child.url, SANDBOX_CONTROL_TOKEN: TOKEN }, ...argv);

/** Exit 1 or 2 with exactly one line on stderr, and nothing on stdout. */
function oneLine(res: { code: number; stdout: string; stderr: string }, code: 1 | 2, text: string | RegExp) {
  expect(res).toMatchObject({ code, stdout: '' });
  expect(res.stderr.endsWith('\n')).toBe(true);
  expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(res.stderr).toMatch(text);
}

describe('each command', () => {
  it.each(Object.keys(commands))('%s --help says how to use it, exit 0', async (name) => {
    const res = await sh(name, '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Usage: banking-sandbox ${name}`));
    expect(res.stdout).toContain('--url URL');
  });

  it('reset: the fixtures back', async () => {
    const me = await sandbox.newClient();
    expect(await sh('reset')).toEqual({ code: 0, stdout: 'Sandbox reset to the fixtures\n', stderr: '' });
    expect((await sandbox.credentials()).map((c) => c.clientId)).not.toContain(me.clientId);
  });

  it('reset --keep-requests: the journal kept; reset alone empties it', async () => {
    await sandbox.newClient();
    expect((await sh('reset', '--keep-requests')).code).toBe(0);
    expect((await sandbox.requests()).map((e) => e.path)[0]).toBe('/__sandbox/reset');
    expect((await sh('reset')).code).toBe(0);
    expect(await sandbox.requests()).toEqual([]);
  });

  it('pay: money on a virtual account, as a line or JSON; bad usage exit 2, a refusal exit 1', async () => {
    const me = await sandbox.newClient({ balance: 0 });
    const account = me.virtualAccount.accountNumber;
    const paid = await sh('pay', '--account', account, '--amount', '100000', '--narration', 'Order 42');
    expect(paid.code).toBe(0);
    expect(paid.stdout).toMatch(/^Payment received: \S+, webhook delivery \S+ \(skipped\)\n$/);
    const json = await sh(
      'pay',
      '--account',
      account,
      '--amount',
      '100000',
      '--json',
      '--payer-name',
      'Ada Obi',
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      deliveryStatus: 'skipped',
      transactionReference: expect.any(String),
    });
    const balance = (await sandbox.credentials()).find((c) => c.clientId === me.clientId)?.businesses[0]
      ?.accountBalance;
    expect(balance).toBe(String(2 * (100_000 - 500)));

    oneLine(
      await sh('pay', '--amount', '100'),
      2,
      'banking-sandbox pay: --account N is required (see banking-sandbox pay --help)',
    );
    oneLine(
      await sh('pay', '--account', account, '--amount=-1'),
      2,
      /--amount must be a whole number of at least 1, not "-1"/,
    );
    oneLine(await sh('pay', '--account', account), 2, /--amount must be a whole number/);
    oneLine(
      await sh('pay', '--account', '0000000000', '--amount', '100'),
      1,
      'banking-sandbox pay: Virtual account not found\n',
    );
    oneLine(
      await sh('pay', '--account', '12', '--amount', '100'),
      1,
      /^banking-sandbox pay: accountNumber is invalid/,
    );
    oneLine(
      await sh('pay', '--account', account, '--amount', '100', '--amoutn', '5'),
      2,
      /Unknown option '--amoutn'/,
    );
  });

  it('reverse and refund: money back, as a line or JSON; bad usage exit 2, a refusal exit 1; pay --refund-mispaid credits a wrong amount', async () => {
    const me = await sandbox.newClient({ balance: 1_000_000 });
    const business = me.businesses[0]?.id ?? '';
    const headers = { ...(await sandbox.signIn(me)), 'content-type': 'application/json' };
    const sent = await fetch(`${sandbox.url}/api/v1/clients/business/customers/funds/transfer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: 150_000,
        receiverAccountNumber: '0123456785',
        receiverBankCode: '058',
        retrievalReference: 'cli-reverse',
        narration: 'CLI',
      }),
    });
    expect(sent.status).toBe(200);
    const reversed = await sh(
      'reverse',
      '--business',
      business,
      '--reference',
      'cli-reverse',
      '--reason',
      'Closed',
    );
    expect(reversed.code).toBe(0);
    expect(reversed.stdout).toBe('Transfer cli-reverse reversed: 151075 kobo back (Closed)\n');
    oneLine(
      await sh('reverse', '--business', business, '--reference', 'cli-reverse'),
      1,
      'banking-sandbox reverse: Transfer already reversed\n',
    );
    oneLine(await sh('reverse', '--reference', 'x'), 2, /--business ID is required/);
    const paid = await sandbox.incomingPayment({
      accountNumber: me.virtualAccount.accountNumber,
      amount: 100_000,
    });
    const refunded = await sh('refund', '--payment', paid.transactionReference, '--json');
    expect(refunded.code).toBe(0);
    expect(JSON.parse(refunded.stdout)).toMatchObject({ refundStatus: 'refunded', amount: '99500' });
    oneLine(await sh('refund'), 2, /--payment REF is required/);
    oneLine(await sh('refund', '--payment', 'SBX0'), 1, 'banking-sandbox refund: Payment not found\n');
    const single = await fetch(`${sandbox.url}/api/v1/clients/business/virtual-accounts/single-use`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        firstName: 'Ada',
        lastName: 'Obi',
        refCode: 'cli-su',
        amount: 500_000,
        duration: 600,
      }),
    });
    const { accountNumber } = ((await single.json()) as { data: { accountNumber: string } }).data;
    oneLine(await sh('pay', '--account', accountNumber, '--amount', '100'), 1, /takes exactly 500000 kobo/);
    expect((await sh('pay', '--account', accountNumber, '--amount', '100', '--refund-mispaid')).code).toBe(0);
  });

  it('subscription: a plan the API lists, as a line or JSON; bad usage exit 2, an unknown business exit 1', async () => {
    const me = await sandbox.newClient();
    const business = me.businesses[0]?.id ?? '';
    const plan = (name: string, amount = '750000') => [
      'subscription',
      '--business',
      business,
      '--package',
      name,
      '--amount',
      amount,
      '--interval',
      'quarterly',
    ];
    const added = await sh(...plan('Gold Plan'));
    expect(added.code, added.stderr).toBe(0);
    const line = /^Subscription (\S+) added: Gold Plan, 750000 kobo quarterly\n$/.exec(added.stdout);
    expect(line).not.toBeNull();
    const json = await sh(...plan('Silver Plan'), '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      id: expect.any(String),
      packageName: 'Silver Plan',
      amount: '750000',
      interval: 'quarterly',
      businessId: business,
      clientId: me.clientId,
    });
    const headers = await sandbox.signIn(me);
    const listed = await fetch(`${child.url}/api/v1/clients/business/subscriptions?packageName=gold%20plan`, {
      headers,
    });
    const { data } = (await listed.json()) as { data: { id: string }[] };
    expect(data.map((s) => s.id)).toEqual([line?.[1]]);

    for (const [missing, message] of [
      ['--business', /--business is required/],
      ['--package', /--package is required/],
      ['--amount', /--amount must be a whole number/],
      ['--interval', /--interval is required/],
    ] as const) {
      const args = plan('Partial Plan');
      args.splice(args.indexOf(missing), 2);
      oneLine(await sh(...args), 2, message);
    }
    oneLine(
      await sh(...plan('Partial Plan', '1.5')),
      2,
      /--amount must be a whole number of at least 0, not "1.5"/,
    );
    oneLine(
      await sh(
        'subscription',
        ...plan('Ghost Plan')
          .slice(1)
          .map((a) => (a === business ? 'nobody' : a)),
      ),
      1,
      'banking-sandbox subscription: Business not found\n',
    );
    // Nothing of the refused calls was added.
    const all = await fetch(`${child.url}/api/v1/clients/business/subscriptions`, { headers });
    const plans = ((await all.json()) as { data: { packageName: string }[] }).data.map((s) => s.packageName);
    expect(plans.sort()).toEqual(['Gold Plan', 'Silver Plan']);
  });

  it('scenario: by name, from a file, --clear; an unknown one exit 1, bad usage exit 2', async () => {
    const active = async () =>
      (
        (await (
          await fetch(`${child.url}/__sandbox/scenario`, { headers: { 'x-sandbox-token': TOKEN } })
        ).json()) as {
          data: { name: string };
        }
      ).data.name;
    expect(await sh('scenario', 'flaky-bank')).toMatchObject({
      code: 0,
      stdout: 'Scenario flaky-bank active\n',
    });
    expect(await active()).toBe('flaky-bank');
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'));
    const file = join(dir, 'mine.json');
    await writeFile(file, JSON.stringify({ name: 'mine', description: 'from a file', rules: [] }));
    expect(await sh('scenario', file)).toMatchObject({
      code: 0,
      stdout: `Scenario mine active (from ${file})\n`,
    });
    expect(await active()).toBe('mine');
    expect(await sh('scenario', '--clear')).toMatchObject({ code: 0, stdout: 'Start-up scenario active\n' });
    expect(await active()).toBe('default');

    oneLine(
      await sh('scenario', 'provider-outag'),
      1,
      /^banking-sandbox scenario: No ready scenario named "provider-outag" \(did you mean "provider-outage"\? ready: default, duplicate-webhooks, /,
    );
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ name: 'bad', description: 'x', rules: [{ on: 'nowhere' }] }));
    oneLine(await sh('scenario', bad), 1, /^banking-sandbox scenario: rules\[0\]\.on/);
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, '{');
    oneLine(await sh('scenario', notJson), 1, `banking-sandbox scenario: ${notJson} is not JSON\n`);
    oneLine(await sh('scenario', join(dir, 'missing.json')), 1, /cannot read .*missing\.json: ENOENT/);
    oneLine(await sh('scenario'), 2, /give a scenario NAME or FILE, or --clear/);
    oneLine(await sh('scenario', 'flaky-bank', '--clear'), 2, /not both/);
  });

  it("account-numbers: one a line, valid for the bank, the handle's over HTTP; an unlisted bank exit 1, bad usage exit 2", async () => {
    const res = await sh('account-numbers', '--bank-code', '058', '--count', '3');
    expect(res).toMatchObject({ code: 0, stderr: '' });
    const numbers = res.stdout.trimEnd().split('\n');
    expect(numbers).toHaveLength(3);
    for (const n of numbers) expect(isValidNuban('058', n)).toBe(true);
    // The same numbers as the handle over HTTP, in JSON too; one by default.
    expect(await sandbox.accountNumbers('058', 3)).toEqual(numbers);
    const json = await sh('account-numbers', '--bank-code', '058', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ bankCode: '058', accountNumbers: numbers.slice(0, 1) });
    oneLine(
      await sh('account-numbers', '--bank-code', '999'),
      1,
      'banking-sandbox account-numbers: Invalid bank code: "999" is not in this sandbox’s bank list\n',
    );
    oneLine(await sh('account-numbers'), 2, /--bank-code CODE is required/);
    oneLine(
      await sh('account-numbers', '--bank-code', '058', '--count', '0'),
      2,
      /--count must be a whole number from 1 to 100, not "0"/,
    );
    // Past the route's bound: bad usage too, told before the sandbox is asked.
    oneLine(
      await sh('account-numbers', '--bank-code', '058', '--count', '101'),
      2,
      /--count must be a whole number from 1 to 100, not "101"/,
    );
  });

  it('clock: freeze, advance, show, unfreeze; bad usage exit 2', async () => {
    const frozen = await sh('clock', 'freeze');
    expect(frozen.stdout).toMatch(/^Clock at \S+ \(frozen, -?\d+ ms from real time\)\n$/);
    const before = Date.parse(/at (\S+)/.exec(frozen.stdout)?.[1] ?? '');
    const advanced = await sh('clock', 'advance', '60000', '--json');
    expect(advanced.code).toBe(0);
    const view = JSON.parse(advanced.stdout) as { now: string; frozen: boolean };
    expect(view.frozen).toBe(true);
    expect(Date.parse(view.now) - before).toBe(60_000);
    expect((await sh('clock', 'show')).stdout).toContain('(frozen,');
    expect((await sh('clock', 'unfreeze')).stdout).toContain('(running,');
    oneLine(await sh('clock'), 2, /clock takes advance MS, freeze, unfreeze or show \(see/);
    oneLine(await sh('clock', 'rewind'), 2, /not "rewind"/);
    oneLine(
      await sh('clock', 'advance', 'soon'),
      2,
      /clock advance MS must be a whole number of at least 1, not "soon"/,
    );
    oneLine(await sh('clock', 'show', 'now'), 2, /unexpected "now"/);
  });

  it('drain: idle exit 0; still busy after --timeout exit 1 naming what waits; a bad timeout exit 2', async () => {
    expect(await sh('drain')).toEqual({ code: 0, stdout: 'Queues are idle\n', stderr: '' });
    const me = await sandbox.newClient({ webhookUrl: receiver.url });
    await sandbox.clock.freeze();
    try {
      const { deliveryId } = await sandbox.incomingPayment({
        accountNumber: me.virtualAccount.accountNumber,
        amount: 500,
      });
      const busy = await sh('drain', '--timeout', '100');
      oneLine(
        busy,
        1,
        /^banking-sandbox drain: The queues were still busy after 100 ms\. Still waiting for: /,
      );
      expect(busy.stderr).toContain(`webhook delivery ${deliveryId}`);
      expect((await sh('clock', 'advance', '3600000')).code).toBe(0);
      expect((await sh('drain', '--timeout', '5000')).code).toBe(0);
    } finally {
      await sandbox.clock.freeze(false);
    }
    oneLine(
      await sh('drain', '--timeout', '0'),
      2,
      /--timeout must be a whole number of at least 1, not "0"/,
    );
    oneLine(await sh('drain', 'now'), 2, /unexpected "now"/);
  });

  it('requests: the matching entries, as lines or JSON (needs the journal routes)', async () => {
    const me = await sandbox.newClient();
    const narration = `cli-${crypto.randomUUID()}`;
    expect((await appTransfer(sandbox, me, narration)).status).toBe(200);
    const listed = await sh(
      'requests',
      '--method',
      'post',
      '--path',
      '/funds/transfer',
      '--body',
      `narration=${narration}`,
    );
    expect(listed.code).toBe(0);
    expect(listed.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(listed.stdout).toMatch(/POST +\/api\/v1\/clients\/business\/customers\/funds\/transfer 200 /);
    const json = await sh(
      'requests',
      '--body',
      `narration=${narration}`,
      '--status',
      '2xx',
      '--client-id',
      me.clientId,
      '--json',
    );
    expect(JSON.parse(json.stdout)).toHaveLength(1);
    expect(await sh('requests', '--body', `narration=${narration}`, '--status', '4xx')).toMatchObject({
      code: 0,
      stdout: 'No request matches\n',
    });
  });

  it('verify: exit 0 when the count holds, 1 when not (needs the journal routes)', async () => {
    const me = await sandbox.newClient();
    const narration = `verify-${crypto.randomUUID()}`;
    expect((await appTransfer(sandbox, me, narration)).status).toBe(200);
    const held = await sh(
      'verify',
      '--path',
      '/funds/transfer',
      '--body',
      `narration=${narration}`,
      '--at-least',
      '1',
    );
    expect(held).toEqual({ code: 0, stdout: 'Verified: 1 request(s) match (at least 1)\n', stderr: '' });
    const none = await sh('verify', '--body', `narration=${narration}`, '--exactly', '0');
    // The count on the first line; under it the nearest requests, here the one that matched when none should.
    expect(none).toMatchObject({ code: 1, stdout: '' });
    expect(none.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^banking-sandbox verify: Expected exactly 0 requests matching .*\(1 matched, expected /,
      ),
      'Nearest request, with the conditions each misses (GET /__sandbox/requests/{id} shows one whole):',
      expect.stringMatching(/^ {2}#\d+ POST \/api\/v1\/\S+\/funds\/transfer → 200: matches every condition$/),
    ]);
    // A request the app sent otherwise: what it missed, and what it had instead.
    const other = await sh(
      'verify',
      '--path',
      '/funds/transfer',
      '--body',
      'narration=elsewhere',
      '--at-least',
      '1',
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`body.narration: wanted "elsewhere", was "${narration}"`);
  });
});

it('requests and verify: bad filters and expectations exit 2 before any call', async () => {
  oneLine(
    await sh('requests', '--status', '4yy'),
    2,
    /--status must be a status \(400\) or a class \(4xx\), not "4yy"/,
  );
  oneLine(await sh('requests', '--body', 'narration'), 2, /--body takes PATH=VALUE/);
  oneLine(await sh('requests', '--limit', '0'), 2, /--limit must be a whole number of at least 1/);
  oneLine(
    await sh('verify', '--path', '/x'),
    2,
    /give exactly one of --at-least N, --exactly N, --at-most N/,
  );
  oneLine(await sh('verify', '--exactly', '1', '--at-most', '2'), 2, /give exactly one of/);
  oneLine(
    await sh('verify', '--at-most', 'many'),
    2,
    /--at-most must be a whole number of at least 0, not "many"/,
  );
});

describe('against no sandbox, or without its token', () => {
  it('a sandbox that cannot be reached: exit 1, one line naming the URL', async () => {
    oneLine(
      await sh('reset', '--url', 'http://127.0.0.1:1'),
      1,
      /^banking-sandbox reset: cannot reach the sandbox at http:\/\/127\.0\.0\.1:1 \(/,
    );
  });

  it('a wrong token: exit 1 with the sandbox’s words; a URL that is not one: exit 2', async () => {
    oneLine(
      await sh('drain', '--token', 'wrong'),
      1,
      'banking-sandbox drain: x-sandbox-token is missing or wrong\n',
    );
    oneLine(await sh('drain', '--url', 'bank:4010'), 2, /--url: "bank:4010" is not an http\(s\) URL/);
  });
});

describe('the binary', () => {
  it('dispatches the commands: exit 0, 1 and 2 (the top-level --help lists them: cli.test.ts)', async () => {
    const env = { SANDBOX_CONTROL_TOKEN: TOKEN };
    const [drained, refused, usage] = await Promise.all([
      runCli(['drain', '--url', child.url], { env }),
      runCli(['pay', '--url', child.url, '--account', '0000000000', '--amount', '100'], { env }),
      runCli(['clock', 'advance', '--url', child.url], { env }),
    ]);
    expect(drained).toEqual({ code: 0, stdout: 'Queues are idle\n', stderr: '' });
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: 'banking-sandbox pay: Virtual account not found\n',
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^banking-sandbox clock: clock advance MS must be a whole number/);
  });
});

describe('drift, against a sandbox with --upstream', () => {
  it('no upstream: one line saying so, exit 0', async () => {
    const res = await sh('drift');
    expect(res).toEqual({
      code: 0,
      stdout:
        'No upstream: this sandbox answers /api/v1 itself (start it with --upstream URL to measure a real bank)\n',
      stderr: '',
    });
  });

  it('findings: each on a line under its route, exit 1; --json the report; --clear empties it, then exit 0', async () => {
    const bank = await startFakeUpstream(() => ({
      status: 200,
      body: { status: true, message: 'Clock', data: { extra: true } },
    }));
    const proxy = await startProcess(['--in-memory', '--quiet', '--upstream', bank.base]);
    try {
      const res = await fetch(`${proxy.url}/api/v1/clients/business/audits/a1`, {
        headers: { 'x-request-id': 'cli-drift-1' },
      });
      expect(res.status).toBe(200);
      const run1 = await sh('drift', '--url', proxy.url);
      expect(run1.code).toBe(1);
      expect(run1.stdout.split('\n').slice(0, 3)).toEqual([
        `Upstream ${bank.base}: 1 call(s) on 1 route(s), ${run1.stdout.match(/(\d+) finding/)?.[1]} finding(s)`,
        'GET /clients/business/audits/{auditId}  1 call(s)  200×1',
        expect.stringMatching(
          /^ {2}\S+ at \S+: expected .*, seen .* \(×1, first x-request-id cli-drift-1\)$/,
        ),
      ]);
      expect(run1.stdout).toContain('  extra-field at data.extra: expected absent, seen boolean');
      const json = await sh('drift', '--url', proxy.url, '--json', '--clear');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ upstream: bank.base, routes: [{ calls: 1 }] });
      expect(await sh('drift', '--url', proxy.url)).toEqual({
        code: 0,
        stdout: `Upstream ${bank.base}: 0 call(s) on 0 route(s), 0 finding(s)\n`,
        stderr: '',
      });
    } finally {
      await stop(proxy);
      await bank.close();
    }
  });
});
