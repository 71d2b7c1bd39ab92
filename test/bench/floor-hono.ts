// The reads' floor: a Hono app on @hono/node-server that does only what the sandbox requires of a read and nothing
// else, the least any implementation could do. It answers GET /api/v1/clients/business/account-details with the
// sandbox's exact answer (its 232 bytes), after the three checks of scheme A at their cheapest (a token already
// verified, found in a map, and its expiry; SECRET_KEY compared in constant time; the business looked up), with a
// request id on the answer and an entry in a bounded request journal. No routing table, validation, roles,
// scenarios, log line or store: what the sandbox has beyond this is what it costs above the floor.
// Listens on PORT (127.0.0.1); TOKEN, SECRET_KEY and BUSINESS_ID are the credentials it accepts.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { type HttpBindings, serve } from '@hono/node-server';
import { Hono } from 'hono';

type Env = { Bindings: HttpBindings };

const port = Number(process.env.PORT ?? '0');
const secret = Buffer.from(process.env.SECRET_KEY ?? '');
const businessId = process.env.BUSINESS_ID ?? '';
const claims = new Map([[process.env.TOKEN ?? '', { sub: 'owner', exp: Date.now() / 1000 + 3600 }]]);
const businesses = new Map([[businessId, { clientId: 'client' }]]);
const answer = {
  status: true,
  message: 'Account details retrieved successfully',
  data: {
    accountNumber: '0123456784',
    accountType: 'current',
    customerId: '1000101',
    businessId,
    accountBalance: '500000000',
  },
};
const refused = (message: string) => ({ status: false, message, data: null });

const journal: object[] = new Array(1000);
let entries = 0;

const app = new Hono<Env>()
  .get('/__sandbox/health', (c) => c.json({ status: 'ok' }))
  .get('/api/v1/clients/business/account-details', (c) => {
    const headers = c.env.incoming.headers;
    const token = (headers.authorization ?? '').slice('Bearer '.length);
    const claim = claims.get(token);
    if (!claim || claim.exp * 1000 <= Date.now()) return c.json(refused('Invalid access token'), 401);
    const given = Buffer.from(String(headers.secret_key ?? ''));
    if (given.length !== secret.length || !timingSafeEqual(given, secret))
      return c.json(refused('Invalid SECRET_KEY'), 401);
    if (!businesses.has(String(headers.businessid))) return c.json(refused('Business not found'), 404);
    return c.json(answer);
  });

const server = serve({
  // An HTTP/1 server: its bindings are Node's request and response.
  fetch: (request, bindings) => {
    const env = bindings as HttpBindings;
    const started = performance.now();
    const requestId = randomUUID();
    env.outgoing.setHeader('x-request-id', requestId);
    const journaled = (res: Response) => {
      journal[entries++ % journal.length] = {
        requestId,
        method: request.method,
        path: env.incoming.url,
        status: res.status,
        at: new Date().toISOString(),
        ms: performance.now() - started,
      };
      return res;
    };
    const res = app.fetch(request, env);
    return res instanceof Promise ? res.then(journaled) : journaled(res);
  },
  port,
  hostname: '127.0.0.1',
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
