import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';

// The export of a large state is read by the fastest reader there is: one in this process that asks for the next
// chunk the moment it has one, with no socket in between to slow it down. Each chunk it gets is a promise settled
// at once, so unless the export itself gives the event loop a turn between chunks, nothing else runs until the
// whole document is out: not a connection accepted, not a request read. A request over a real socket, sent as the
// export starts, needs several such turns to be answered; it must be answered before the export ends.

/** Customers added to the fixtures' state: some 10 MB of JSON, a few dozen chunks. */
const EXTRA_CUSTOMERS = 20_000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ inMemory: true, port: 0, quiet: true, log: () => undefined });
  const doc = structuredClone(sandbox.store.exportState());
  const [template] = doc.collections.customers;
  if (!template) throw new Error('the fixtures hold no customer');
  for (let i = 0; i < EXTRA_CUSTOMERS; i++)
    doc.collections.customers.push({ ...template, id: `export-customer-${i}`, email: `c${i}@example.com` });
  await sandbox.store.replaceState(doc);
});
afterAll(() => sandbox.close());

describe('GET /__sandbox/state read as fast as it can be', () => {
  it('lets a request that arrives meanwhile be answered before the export ends', async () => {
    const order: string[] = [];
    const res = await sandbox.app.request('/__sandbox/state');
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    if (!reader) throw new Error('the export has no body');
    const first = await reader.read();
    expect(first.done).toBe(false);
    // Sent once the export is under way, over a real connection.
    const health = fetch(`${sandbox.url}/__sandbox/health`).then(async (answer) => {
      order.push(`health ${answer.status}`);
      await answer.text();
    });
    let chunks = 1;
    let bytes = first.value?.length ?? 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      chunks++;
      bytes += next.value.length;
    }
    order.push('export ended');
    await health;

    // A document of many chunks, so that "before the end" means something.
    expect(chunks).toBeGreaterThan(10);
    expect(bytes).toBeGreaterThan(EXTRA_CUSTOMERS * 100);
    expect(order).toEqual(['health 200', 'export ended']);
  });
});
