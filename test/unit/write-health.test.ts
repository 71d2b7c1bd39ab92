import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreWriteError } from '../../src/store/write-error.js';
import { type WriteHealth, WriteHealthMonitor } from '../../src/store/write-health.js';

const full = () => new StoreWriteError(Object.assign(new Error('no space'), { code: 'ENOSPC' }));
const broken = () => new StoreWriteError(Object.assign(new Error('i/o'), { code: 'EIO' }));

/** Whether `promise` has settled by now (every job queued before this call has run). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), Promise.resolve().then(() => false)]);
}

/** A monitor whose probes and reports the test counts; time is vitest's fake clock. */
function monitor(probeIntervalMs = 100) {
  const told: WriteHealth[] = [];
  let probes = 0;
  const health = new WriteHealthMonitor({
    probe: () => {
      probes++;
    },
    probeIntervalMs,
    onWriteHealth: (h) => told.push(h),
  });
  return { health, told, probes: () => probes };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WriteHealthMonitor', () => {
  it('is writable until a write fails, with no timer running', () => {
    const { health, told } = monitor();
    expect(health.current()).toEqual({ writable: true });
    expect(vi.getTimerCount()).toBe(0);
    health.markWritable();
    expect(told).toEqual([]);
  });

  it('failing then working again is told once each way, with the first failure and since when', () => {
    const { health, told } = monitor();
    health.markUnwritable(full());
    vi.advanceTimersByTime(5_000);
    // The same outage, told no second time, and its first cause kept.
    health.markUnwritable(broken());
    const down = {
      writable: false,
      code: 'ENOSPC',
      message: 'The sandbox cannot write its state: no space left on device (ENOSPC)',
      since: Date.parse('2026-01-01T00:00:00.000Z'),
    };
    expect(health.current()).toEqual(down);
    health.markWritable();
    health.markWritable();
    expect(told).toEqual([down, { writable: true }]);
    expect(health.current()).toEqual({ writable: true });
  });

  it('lets the whenWritable waiters go once writes work, and not before', async () => {
    const { health } = monitor();
    await expect(settled(health.whenWritable())).resolves.toBe(true);
    health.markUnwritable(full());
    const first = health.whenWritable();
    const second = health.whenWritable();
    expect(await settled(first)).toBe(false);
    health.markWritable();
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
  });

  it('probes every interval while writes fail, and stops once they work or when told to', () => {
    const { health, probes } = monitor(100);
    health.markUnwritable(full());
    vi.advanceTimersByTime(350);
    expect(probes()).toBe(3);
    health.markWritable();
    vi.advanceTimersByTime(1_000);
    expect(probes()).toBe(3);
    expect(vi.getTimerCount()).toBe(0);

    health.markUnwritable(full());
    vi.advanceTimersByTime(100);
    expect(probes()).toBe(4);
    health.stopProbing();
    vi.advanceTimersByTime(1_000);
    expect(probes()).toBe(4);
    // Stopping the probes is not a recovery.
    expect(health.current().writable).toBe(false);
  });
});
