import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { singleUseAccount, virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { clock as clockSchema } from '../../../src/contract/control/clock.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { END_OF_TIME, END_OF_TIME_MS, MAX_TIME_MS } from '../../../src/domain/clock.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { answerCheck } from '../../support/contract.js';
import { startReceiver } from '../../support/receiver.js';
import { A, call, closedAfterEach, ownerHeaders, tokenFor } from '../../support/sandbox.js';
import { stateOf } from '../../support/store.js';
import { attemptsRecorded } from '../../support/webhooks.js';

// A sandbox whose clock stands at (or a second before) the end of its range,
// 9999-12-31T23:59:59.999Z, answers every call without a 5xx and writes every time with a four-digit year.

const SECOND = 1000;
const DAY = 24 * 3_600_000;
/** Real time of these sandboxes: fixed, so the clock moves only when a test moves it (or the source). */
const REAL = Date.parse('2030-01-01T00:00:00.000Z');
const VIEWER = roles.find((r) => r.name === 'Viewer')?.id ?? '';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
/** A time as the sandbox writes it, wherever it is in an answer: anything with a date and a time of day. */
const TIMESTAMP = /^[+-]?\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** A year past 9999 or before 0000 as `toISOString()` writes it, anywhere in a text. */
const SIX_DIGIT_YEAR = /[+-]\d{6}-\d{2}-\d{2}T/;

const { cleanups } = closedAfterEach();

/** A sandbox on a time source the test moves by hand, its answers checked against the route schemas. */
async function sandboxAt(options: SandboxOptions, source: { real: number }): Promise<Sandbox> {
  const sandbox = await createSandbox(
    { log: () => undefined, ...options },
    { now: () => source.real },
    { checkAnswers: answerCheck },
  );
  cleanups.push(() => sandbox.close());
  return sandbox;
}

/** Every answer a test got, to check all of them at the end. */
type Answer = Awaited<ReturnType<typeof call>>;

/** The strings in `value` (an answer's body, at any depth) that are times. */
function timestampsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) timestampsIn(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) timestampsIn(v, out);
  }
  return out;
}

/** No answer is a 5xx, every time in them has a four-digit year, and none names a six-digit year anywhere. */
function expectSound(answers: Answer[]): void {
  for (const a of answers) {
    expect(a.status, JSON.stringify(a.body)).toBeLessThan(500);
    for (const t of timestampsIn(a.body)) expect(t).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.stringify(a.body)).not.toMatch(SIX_DIGIT_YEAR);
  }
}

async function clockNow(sandbox: Sandbox): Promise<string> {
  return dataOf(await call(sandbox, 'GET', '/__sandbox/clock'), clockSchema).now;
}

/** Advances the clock to `at`, answering the advance. */
function advanceTo(sandbox: Sandbox, at: number) {
  return call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: at - sandbox.clock.now() } });
}

/** The files of a state directory, byte for byte. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort())
    out[name] = (await readFile(join(dir, name))).toString('base64');
  return out;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'end-of-time-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('a second before the end of time', () => {
  it('signs in, transfers, opens accounts, invites, retries webhooks and shows the clock and dashboard: no 5xx, four-digit years', async () => {
    const hook = await startReceiver([], 500);
    cleanups.push(hook.close);
    // Retries a minute apart: each would fall past the end, and is due at the end instead.
    const sandbox = await sandboxAt(
      { inMemory: true, webhookAttempts: 4, webhookRetryBase: 60_000 },
      { real: REAL },
    );
    const answers: Answer[] = [];
    const send = async (...args: Parameters<typeof call>) => {
      const res = await call(...args);
      answers.push(res);
      return res;
    };

    const advanced = await advanceTo(sandbox, END_OF_TIME_MS - SECOND);
    answers.push(advanced);
    expect(advanced.status).toBe(200);
    expect(await clockNow(sandbox)).toBe('9999-12-31T23:59:58.999Z');

    const signIn = await send(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(signIn.status).toBe(200);
    const headers = await ownerHeaders(sandbox);
    const transfer = await send(sandbox, 'POST', TRANSFER, {
      headers,
      body: {
        amount: 150_000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: banks.banks[0]?.code ?? '',
        retrievalReference: 'end-of-time-1',
        narration: 'Last invoice',
      },
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);

    // A temporal account's lifetime (30 min by default) is cut short at the end.
    const temporal = await send(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
      headers,
      body: { firstName: 'Ada', lastName: 'Obi', type: 'temporal', reference: 'end-temporal' },
    });
    expect(temporal.status, JSON.stringify(temporal.body)).toBe(201);
    const temporalNumber = dataOf(temporal, virtualAccount).accountNumber;
    expect(sandbox.store.where('virtualAccounts', 'accountNumber', temporalNumber)[0]?.expiresAt).toBe(
      END_OF_TIME_MS,
    );

    // A single-use account whose caller-chosen duration ends on the end is opened; one second more is refused.
    const single = (refCode: string, duration: number) =>
      send(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts/single-use', {
        headers,
        body: { firstName: 'Kemi', lastName: 'Adeyemi', refCode, amount: 250_000, duration },
      });
    const lastSingle = await single('end-single', 1);
    expect(lastSingle.status, JSON.stringify(lastSingle.body)).toBe(201);
    expect(dataOf(lastSingle, singleUseAccount).expiresAt).toBe(END_OF_TIME);
    const tooLong = await single('end-single-late', 2);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      status: false,
      message: `duration is invalid: the account would expire past ${END_OF_TIME}, the end of the sandbox clock's range`,
      errors: [{ field: 'duration', message: expect.stringContaining(END_OF_TIME) }],
    });

    const invited = await send(sandbox, 'POST', '/api/v1/clients/members', {
      headers,
      body: { email: 'last.member@adebayo.test', memberRoleId: VIEWER },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(sandbox.store.all('invitations').at(-1)?.expiresAt).toBe(END_OF_TIME_MS);

    // A payment into an account of a client whose webhook receiver fails: its retries are due at the end.
    const hookSet = await send(sandbox, 'PATCH', '/api/v1/clients/settings/update-webhook-url', {
      headers,
      body: { webhookUrl: hook.url },
    });
    expect(hookSet.status).toBe(200);
    const paid = await send(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: temporalNumber, amount: 5_000 },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const deliveryId = dataOf(paid, paymentReceived).deliveryId;
    await attemptsRecorded(sandbox, deliveryId, 1);
    const retrying = sandbox.store.get('deliveries', deliveryId);
    expect(retrying?.status).toBe('pending');
    expect(retrying?.nextAttemptAt).toBe(END_OF_TIME_MS);

    // To the end: every retry comes due there, and the delivery fails after its attempts instead of waiting forever.
    const toEnd = await advanceTo(sandbox, END_OF_TIME_MS);
    answers.push(toEnd);
    expect(toEnd.status).toBe(200);
    expect(dataOf(toEnd, clockSchema).now).toBe(END_OF_TIME);
    const delivery = await send(sandbox, 'GET', `/__sandbox/webhooks/deliveries/${deliveryId}`);
    expect(delivery.body.data).toMatchObject({ status: 'failed', attemptsLeft: 0, nextAttemptAt: null });
    expect(hook.received).toHaveLength(4);

    // At the end: the token issued a second before still works, a fresh sign-in too, and so does what expires there.
    const atEnd = await send(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect(atEnd.status).toBe(200);
    const fresh = { ...headers, authorization: `Bearer ${await tokenFor(sandbox, A.owner)}` };
    const again = await send(sandbox, 'POST', TRANSFER, {
      headers: fresh,
      body: {
        amount: 1_000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: banks.banks[0]?.code ?? '',
        retrievalReference: 'end-of-time-2',
        narration: 'After the last',
      },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const stillOpen = await send(sandbox, 'POST', '/__sandbox/incoming-payments', {
      body: { accountNumber: temporalNumber, amount: 5_000 },
    });
    expect(stillOpen.status, JSON.stringify(stillOpen.body)).toBe(201);

    // Nothing passes the end: the advance is refused, naming it, and the clock stays.
    const past = await send(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 1 } });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(
      `ms would move the clock past ${END_OF_TIME}, the end of the clock's range`,
    );
    expect(await clockNow(sandbox)).toBe(END_OF_TIME);
    const frozen = await send(sandbox, 'POST', '/__sandbox/clock/freeze', { body: {} });
    expect(frozen.body.data).toMatchObject({ now: END_OF_TIME, frozen: true });

    for (const path of [
      '/__sandbox/clock',
      '/__sandbox/virtual-accounts',
      '/__sandbox/webhooks/deliveries',
      '/__sandbox/outbox',
      '/__sandbox/requests',
      `/__sandbox/businesses/${A.a1.id}/ledger`,
      '/__sandbox/state',
    ]) {
      const res = await send(sandbox, 'GET', path);
      expect(res.status, path).toBe(200);
    }
    expectSound(answers);

    const ui = await sandbox.app.request('/__sandbox/ui');
    expect(ui.status).toBe(200);
    const html = await ui.text();
    expect(html).toContain(`datetime="${END_OF_TIME}"`);
    expect(html).toContain(`data-end="${END_OF_TIME_MS}"`);
    expect(html).not.toMatch(SIX_DIGIT_YEAR);
    for (const [, at] of html.matchAll(/datetime="([^"]*)"/g)) expect(at).toMatch(/^\d{4}-/);
  });
});

describe('an import past the end of time', () => {
  it.each([
    ['frozen past the end', { offsetMs: 0, frozenAt: END_OF_TIME_MS + 1 }, 'frozenAt'],
    [
      'running, with an offset that puts it past the end now',
      { offsetMs: END_OF_TIME_MS - REAL + 1, frozenAt: null },
      'offsetMs',
    ],
  ])(
    'is refused when %s (400 naming the end), and the state is byte for byte unchanged',
    async (_, clock, field) => {
      const dir = await tempDir();
      const sandbox = await sandboxAt({ data: join(dir, 'db.json') }, { real: REAL });
      const exported = await call(sandbox, 'GET', '/__sandbox/state');
      const before = JSON.stringify(exported.body);
      await sandbox.drain();
      const files = await filesOf(dir);
      const doc = stateOf(exported);
      const meta = doc.collections.meta[0];
      if (!meta) throw new Error('no meta record');
      doc.collections.meta = [{ ...meta, clock }];
      const res = await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...doc } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, data: null });
      expect(String(res.body.message)).toContain(field);
      expect(String(res.body.message)).toContain(END_OF_TIME);
      expect(JSON.stringify((await call(sandbox, 'GET', '/__sandbox/state')).body)).toBe(before);
      await sandbox.drain();
      expect(await filesOf(dir)).toEqual(files);
      expect(await clockNow(sandbox)).toBe('2030-01-01T00:00:00.000Z');
    },
  );

  it('takes a clock frozen at exactly the end', async () => {
    const sandbox = await sandboxAt({ inMemory: true }, { real: REAL });
    const doc = stateOf(await call(sandbox, 'GET', '/__sandbox/state'));
    const meta = doc.collections.meta[0];
    if (!meta) throw new Error('no meta record');
    doc.collections.meta = [{ ...meta, clock: { offsetMs: 0, frozenAt: END_OF_TIME_MS } }];
    expect((await call(sandbox, 'PUT', '/__sandbox/state', { body: { ...doc } })).status).toBe(200);
    expect(await clockNow(sandbox)).toBe(END_OF_TIME);
  });
});

describe('a restart at the end of time', () => {
  it('comes back at the end after real time carried the running clock past it, and signs in', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const source = { real: REAL };
    const first = await sandboxAt({ data }, source);
    expect((await advanceTo(first, END_OF_TIME_MS)).status).toBe(200);
    await first.close();

    source.real += DAY;
    const second = await sandboxAt({ data }, source);
    expect(await clockNow(second)).toBe(END_OF_TIME);
    const signIn = await call(second, 'POST', '/api/v1/auth/signin', {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(signIn.status).toBe(200);
    const read = await call(second, 'GET', '/api/v1/clients/business/account-details', {
      headers: await ownerHeaders(second),
    });
    expect(read.status).toBe(200);
  });

  it('comes back at the end from a state an earlier version let drift past the range of a Date', async () => {
    const dir = await tempDir();
    const data = join(dir, 'db.json');
    const source = { real: REAL };
    const first = await sandboxAt({ data }, source);
    await first.close();
    // What the issue saw: a running clock advanced to within seconds of 8.64e15, then carried past it.
    const snapshot = JSON.parse(await readFile(data, 'utf8')) as {
      collections: { meta: [{ clock: { offsetMs: number; frozenAt: null } }] };
    };
    snapshot.collections.meta[0].clock = { offsetMs: MAX_TIME_MS - 5 * SECOND - REAL, frozenAt: null };
    await writeFile(data, JSON.stringify(snapshot));
    source.real += DAY;

    const second = await sandboxAt({ data }, source);
    expect(await clockNow(second)).toBe(END_OF_TIME);
    const read = await call(second, 'GET', '/api/v1/clients/business/account-details', {
      headers: await ownerHeaders(second),
    });
    expect(read.status).toBe(200);
    expect((await second.app.request('/__sandbox/ui')).status).toBe(200);
  });
});
