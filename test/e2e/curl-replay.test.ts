import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signIn } from '../../src/contract/api/auth.js';
import { requestEntry, requestEntryWithCurl } from '../../src/contract/control/requests.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox.js';
import { dataOf, pageOf } from '../support/answers.js';
import { A, schemeA } from '../support/sandbox.js';

// The journal's `curl` command, run for real: /usr/bin/curl against a listening sandbox, the credentials from the
// environment, must send the same request again.

const CURL = '/usr/bin/curl';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ inMemory: true, port: 0, log: () => undefined });
});
afterAll(() => sandbox?.close());

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { data?: unknown } };
}

it('a transfer replayed with its curl command lands in the journal as the same request', async (ctx) => {
  if (!existsSync(CURL)) ctx.skip(`${CURL} is missing: the curl command cannot be run`);
  const token = dataOf(
    await send('POST', '/api/v1/auth/signin', {}, { email: A.owner.email, password: A.owner.password }),
    signIn,
  ).accessToken;
  const body = {
    amount: 150000,
    receiverAccountNumber: '0123456789',
    receiverBankCode: '044',
    retrievalReference: 'curl-replay-1',
    narration: 'Ada\'s invoice: "42" $HOME `x`',
  };
  const first = await send('POST', `${TRANSFER}?trace=it's`, schemeA(token, A.secretKey, A.a1.id), body);
  expect(first.status).toBe(200);

  const journal = async () =>
    pageOf(await send('GET', `/__sandbox/requests?path=${TRANSFER}`, {}), requestEntry).data;
  const [recorded] = await journal();
  if (!recorded) throw new Error('the transfer is not in the journal');
  const { curl } = dataOf(await send('GET', `/__sandbox/requests/${recorded.id}`, {}), requestEntryWithCurl);
  expect(curl).not.toContain(token);
  expect(curl).not.toContain(A.secretKey);

  const run = await promisify(execFile)('/bin/sh', ['-c', `${curl} --silent --show-error`], {
    env: { PATH: '/usr/bin:/bin', AUTHORIZATION: token, SECRET_KEY: A.secretKey },
  });
  expect(JSON.parse(run.stdout)).toEqual(first.body);

  const entries = await journal();
  expect(entries).toHaveLength(2);
  const [replayed] = entries;
  const same = (e: typeof recorded) => ({
    method: e.method,
    path: e.path,
    query: e.query,
    body: e.request.body,
    status: e.status,
  });
  expect(replayed && same(replayed)).toEqual(same(recorded));
  expect(replayed?.clientId).toBe(A.id);
});
