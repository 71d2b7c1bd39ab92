// The baseline of the part `typical`: every round trip of a typical integration test answered with a fixed body by
// the smallest Hono app, on PORT (127.0.0.1). The bodies carry what the test's next step reads (a client's keys and
// business, a token, a batch's id), so one client runs against both.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const port = Number(process.env.PORT ?? '0');
const client = {
  status: true,
  message: 'Client created',
  data: {
    clientId: 'c1',
    email: 'owner@bench.test',
    password: 'Sandbox123!',
    publicKey: 'pk_sandbox_bench',
    secretKey: 'sk_sandbox_bench',
    businesses: [{ id: 'b1', businessName: 'Bench', isApproved: true, accountNumber: '0123456784' }],
  },
};
const token = {
  status: true,
  message: 'Login successful',
  data: { accessToken: 'header.payload.signature' },
};
const batch = {
  status: true,
  message: 'Bulk transfer created',
  data: { id: 'batch-1', status: 'pending', items: [] },
};
const ok = { status: true, message: 'Done', data: { count: 1 } };
const app = new Hono()
  .get('/__sandbox/health', (c) => c.json({ status: 'ok' }))
  .post('/__sandbox/sandboxes', (c) => c.json({ status: true, data: { id: 'w1' } }, 201));
// The root's paths, and an isolated sandbox's.
for (const prefix of ['', '/sandboxes/:id']) {
  app
    .post(`${prefix}/__sandbox/clients`, (c) => c.json(client, 201))
    .post(`${prefix}/api/v1/auth/signin`, (c) => c.json(token))
    .post(`${prefix}/api/v1/clients/business/customers/funds/bulk-transfer`, (c) => c.json(batch, 201));
}
app.all('*', (c) => c.json(ok));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
