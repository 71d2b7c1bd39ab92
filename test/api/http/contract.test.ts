import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteContract } from '../../../src/contract/kit.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { checkedAnswers } from '../../support/contract.js';
import { memorySandbox } from '../../support/sandbox.js';
import { documentsOwnError, ROUTES, runTour, startTour, type Tour, tour } from '../../support/tour.js';

// Every operation's success and error answers are validated against its documented schema: the tour
// (test/support/tour.ts) calls every operation of both lists with a success and an error on one fresh sandbox,
// and `checkedAnswers` says whether each answer was checked. It runs at the root of a process and again inside an
// isolated sandbox of one: every route works in every world (the isolated sandboxes' registry, which lives at the
// root, answers its documented 404 inside one).

const WORLDS = ['at the root', 'in an isolated sandbox'] as const;

describe.each(WORLDS)('every operation, answered and checked against its document, %s', (where) => {
  let root: Sandbox;
  let t: Tour;
  beforeAll(async () => {
    root = await memorySandbox({ webhookAttempts: 1 });
    const world = where === 'at the root' ? root : await root.isolate({ id: 'tour-home' });
    t = await startTour(world, root);
  });
  afterAll(() => root.close());

  it('has one step per operation of both lists, and none for another', () => {
    const ids = ROUTES.map(({ route }) => route.operationId);
    expect(new Set(ids).size, 'operationIds are unique').toBe(ids.length);
    expect(Object.keys(tour).sort()).toEqual([...ids].sort());
  });

  it('calls every operation with a success and an error', async () => {
    // Only this world's answers: the tour's.
    checkedAnswers.clear();
    const rootBefore = JSON.stringify(root.store.exportState());
    await runTour(t);
    // Inside an isolated sandbox, the tour changed that world only.
    if (t.sandbox !== root) expect(JSON.stringify(root.store.exportState())).toBe(rootBefore);
  });

  it('saw a checked success of each, and a checked error of each that documents one of its own', () => {
    const statuses = new Map<string, number[]>();
    for (const answer of checkedAnswers) {
      const [operationId = '', status = ''] = answer.split(' ');
      statuses.set(operationId, [...(statuses.get(operationId) ?? []), Number(status)]);
    }
    const statusesOf = (route: RouteContract) => statuses.get(route.operationId) ?? [];
    const withoutSuccess = ROUTES.filter(({ route }) => !statusesOf(route).some((s) => s >= 200 && s < 300));
    const withoutError = ROUTES.filter(
      ({ route, api }) => documentsOwnError(route, api) && !statusesOf(route).some((s) => s >= 400),
    );
    expect(withoutSuccess.map(({ route }) => route.operationId)).toEqual([]);
    expect(withoutError.map(({ route }) => route.operationId)).toEqual([]);
  });
});
