import { afterEach } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox.js';
import { type Reply, startReceiver } from './receiver.js';
import { memorySandbox } from './sandbox.js';

/**
 * What a test file opens and needs closed after each test: call it once at the top of the file. `later` takes
 * any clean-up; `open` and `receiver` start a memory sandbox and a real webhook receiver that close by themselves.
 */
export function closedAfterEachTest() {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0)) await f();
  });
  const later = (cleanup: () => Promise<unknown>) => {
    cleanups.push(cleanup);
  };
  return {
    later,
    /** A memory sandbox, closed after the test. */
    async open(options: SandboxOptions = {}): Promise<Sandbox> {
      const sandbox = await memorySandbox(options);
      later(() => sandbox.close());
      return sandbox;
    },
    /** A real webhook receiver, closed after the test. */
    async receiver(replies: Reply[] = [], then: Reply = 200) {
      const r = await startReceiver(replies, then);
      later(r.close);
      return r;
    },
  };
}
