import type { HealthDegradedView, HealthView } from '../../contract/control/sandbox.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { DrainTimeoutError } from '../../errors.js';
import type { ControlHooks } from '../hooks.js';

/** Ready, or degraded while the state cannot be written (then with the reason and since when). */
export function healthNow(deps: Pick<Deps, 'store'>, hooks: ControlHooks): HealthView | HealthDegradedView {
  const uptimeSeconds = Math.floor((Date.now() - hooks.startedAt) / 1000);
  const writes = deps.store.writeHealth();
  if (writes.writable) return { status: 'ok', version: hooks.version, uptimeSeconds };
  const since = new Date(writes.since).toISOString();
  return { status: 'degraded', version: hooks.version, uptimeSeconds, reason: writes.message, since };
}

/** Waits for the queues; one that gave up is 408, naming what is still waiting (`waiting`). */
export async function drain(hooks: ControlHooks, timeoutMs: number): Promise<void> {
  try {
    await hooks.drain({ timeoutMs });
  } catch (error) {
    if (error instanceof DrainTimeoutError) throw new ApiError(408, error.message, undefined, error.waiting);
    throw error;
  }
}
