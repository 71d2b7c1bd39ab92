import { describe, expect, it } from 'vitest';
import { claimDecision, settledStatus } from '../../src/domain/bulk-state.js';
import type { BulkStatus } from '../../src/domain/statuses.js';

describe('settledStatus(total, completed, failed)', () => {
  it.each([
    // Still open: some item is pending or processing.
    { total: 1, completed: 0, failed: 0, expected: null },
    { total: 5, completed: 0, failed: 0, expected: null },
    { total: 5, completed: 4, failed: 0, expected: null },
    { total: 5, completed: 0, failed: 4, expected: null },
    { total: 5, completed: 2, failed: 2, expected: null },
    { total: 10_000, completed: 9_999, failed: 0, expected: null },
    // Every item went through.
    { total: 1, completed: 1, failed: 0, expected: 'completed' },
    { total: 5, completed: 5, failed: 0, expected: 'completed' },
    { total: 10_000, completed: 10_000, failed: 0, expected: 'completed' },
    // None went through.
    { total: 1, completed: 0, failed: 1, expected: 'failed' },
    { total: 5, completed: 0, failed: 5, expected: 'failed' },
    // Some of each.
    { total: 2, completed: 1, failed: 1, expected: 'partially_completed' },
    { total: 5, completed: 4, failed: 1, expected: 'partially_completed' },
    { total: 5, completed: 1, failed: 4, expected: 'partially_completed' },
    { total: 10_000, completed: 5_000, failed: 5_000, expected: 'partially_completed' },
  ] as const)('($total, $completed, $failed) → $expected', ({ total, completed, failed, expected }) => {
    expect(settledStatus(total, completed, failed)).toBe(expected);
  });

  it('is null for every split that leaves at least one item open, and settled for every full split', () => {
    const total = 6;
    for (let completed = 0; completed <= total; completed++) {
      for (let failed = 0; completed + failed <= total; failed++) {
        const status = settledStatus(total, completed, failed);
        if (completed + failed < total) expect(status, `${completed}/${failed}`).toBeNull();
        else expect(status, `${completed}/${failed}`).not.toBeNull();
      }
    }
  });
});

describe('claimDecision(status)', () => {
  it.each([
    ['pending', 'claim'],
    ['processing', 'already-processing'],
    ['completed', 'already-completed'],
    // A batch that failed to start, or settled with failed items, may be claimed again.
    ['failed', 'claim'],
    ['partially_completed', 'claim'],
  ] as const satisfies readonly (readonly [BulkStatus, string])[])('%s → %s', (status, decision) => {
    expect(claimDecision(status)).toBe(decision);
  });
});
