import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn as signedIn } from '../../src/contract/api/auth.js';
import { virtualAccount } from '../../src/contract/api/virtual-accounts.js';
import { paymentReceived } from '../../src/contract/control/incoming-payments.js';
import { delivery } from '../../src/contract/control/webhooks.js';
import { dataOf } from '../support/answers.js';
import { http, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { startReceiver } from '../support/receiver.js';
import { A } from '../support/sandbox.js';

let dir: string;
const running: SandboxProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webhook-restart-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('webhook retries across a restart', () => {
  it('a retry pending when the sandbox stops is made after it starts again', async () => {
    const hook = await startReceiver([500]);
    try {
      const data = join(dir, 'db.json');
      // The first retry is due a minute after the failed attempt, on a clock frozen until the test moves it: the
      // process stops before the retry whatever the machine's load, and nothing waits for the minute to pass.
      const args = ['--data', data, '--webhook-retry-base', '60000', '--webhook-attempts', '3'];
      const first = await startProcess(args);
      running.push(first);
      expect((await http(first, 'POST', '/__sandbox/clock/freeze', { body: {} })).status).toBe(200);
      const signIn = await http(first, 'POST', '/api/v1/auth/signin', {
        body: { email: A.owner.email, password: A.owner.password },
      });
      const token = dataOf(signIn, signedIn).accessToken;
      const headers = { authorization: `Bearer ${token}`, SECRET_KEY: A.secretKey, businessId: A.a1.id };
      await http(first, 'PATCH', '/api/v1/clients/settings/update-webhook-url', {
        headers,
        body: { webhookUrl: hook.url },
      });
      const va = await http(first, 'POST', '/api/v1/clients/business/virtual-accounts', {
        headers,
        body: { firstName: 'Ngozi', lastName: 'Eze', type: 'permanent', reference: 'restart-1' },
      });
      const { accountNumber } = dataOf(va, virtualAccount);
      const paid = await http(first, 'POST', '/__sandbox/incoming-payments', {
        body: { accountNumber, amount: 250_000 },
      });
      expect(paid.status).toBe(201);
      const { deliveryId } = dataOf(paid, paymentReceived);

      let attempts = 0;
      while (attempts === 0) {
        const d = await http(first, 'GET', `/__sandbox/webhooks/deliveries/${deliveryId}`);
        attempts = dataOf(d, delivery).attempts.length;
      }
      expect(await stop(first)).toEqual({ code: 0, signal: null });
      expect(hook.received).toHaveLength(1);

      // The clock is part of the state: still frozen after the restart, and the retry still a minute away.
      const second = await startProcess(args);
      running.push(second);
      expect(hook.received).toHaveLength(1);
      expect((await http(second, 'POST', '/__sandbox/clock/advance', { body: { ms: 60_000 } })).status).toBe(
        200,
      );
      expect((await http(second, 'POST', '/__sandbox/drain')).status).toBe(200);
      const d = dataOf(await http(second, 'GET', `/__sandbox/webhooks/deliveries/${deliveryId}`), delivery);
      expect(d.status).toBe('delivered');
      expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]?.body).toEqual(hook.received[0]?.body);
      await stop(second);
    } finally {
      await hook.close();
    }
  });
});
