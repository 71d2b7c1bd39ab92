import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteContract } from '../../../src/contract/kit.js';
import { checkedAnswers } from '../../support/contract.js';
import { A, memorySandbox, schemeA, schemeB, tokenFor } from '../../support/sandbox.js';
import { documentsOwnError, ROUTES, type Tour, tour } from '../../support/tour.js';

// Every operation's success and error answers are validated against its documented schema: the tour
// (test/support/tour.ts) calls every operation of both lists with a success and an error on one fresh sandbox,
// and `checkedAnswers` says whether each answer was checked.

describe('every operation, answered and checked against its document', () => {
  let t: Tour;
  beforeAll(async () => {
    // Only this file's answers: the tour's.
    checkedAnswers.clear();
    const sandbox = await memorySandbox({ webhookAttempts: 1 });
    const [owner, manager, viewer] = await Promise.all([
      tokenFor(sandbox, A.owner),
      tokenFor(sandbox, A.manager),
      tokenFor(sandbox, A.viewer),
    ]);
    t = {
      sandbox,
      owner: schemeA(owner, A.secretKey, A.a1.id),
      ownerNoBusiness: schemeA(owner, A.secretKey),
      manager: schemeA(manager, A.secretKey, A.a1.id),
      viewer: schemeA(viewer, A.secretKey, A.a1.id),
      keys: schemeB(A.publicKey, A.secretKey, A.a1.id),
      kept: new Map(),
    };
  });
  afterAll(() => t.sandbox.close());

  it('has one step per operation of both lists, and none for another', () => {
    const ids = ROUTES.map(({ route }) => route.operationId);
    expect(new Set(ids).size, 'operationIds are unique').toBe(ids.length);
    expect(Object.keys(tour).sort()).toEqual([...ids].sort());
  });

  it('calls every operation with a success and an error', async () => {
    for (const [operationId, step] of Object.entries(tour)) {
      try {
        await step(t);
      } catch (error) {
        throw new Error(`step ${operationId}: ${error instanceof Error ? error.message : error}`, {
          cause: error,
        });
      }
    }
  });

  it('saw a checked success of each, and a checked error of each that documents one of its own', () => {
    const seen = new Map<string, number[]>();
    for (const answer of checkedAnswers) {
      const [operationId = '', status = ''] = answer.split(' ');
      seen.set(operationId, [...(seen.get(operationId) ?? []), Number(status)]);
    }
    const statusesOf = (route: RouteContract) => seen.get(route.operationId) ?? [];
    const withoutSuccess = ROUTES.filter(({ route }) => !statusesOf(route).some((s) => s >= 200 && s < 300));
    const withoutError = ROUTES.filter(
      ({ route, api }) => documentsOwnError(route, api) && !statusesOf(route).some((s) => s >= 400),
    );
    expect(withoutSuccess.map(({ route }) => route.operationId)).toEqual([]);
    expect(withoutError.map(({ route }) => route.operationId)).toEqual([]);
  });
});
