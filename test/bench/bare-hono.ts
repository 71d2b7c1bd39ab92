// The baseline of the benchmark: the smallest Hono app on @hono/node-server, listening on PORT (127.0.0.1).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const port = Number(process.env.PORT ?? '0');
const app = new Hono()
  .get('/', (c) => c.json({ message: 'hello' }))
  .get('/__sandbox/health', (c) => c.json({ status: 'ok' }));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
process.on('SIGTERM', () => server.close(() => process.exit(0)));
