import { decideDispute } from '../../bank/disputes/service.js';
import { rejectDisputeContract, resolveDisputeContract } from '../../contract/control/disputes.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/disputes/{id}/…`: the bank's side of a dispute, decided. */
export const disputeRoutes: Route<ControlRuntime>[] = [
  route(resolveDisputeContract, async ({ deps, params }) => ({
    data: await decideDispute(deps, params.id, 'resolved'),
  })),
  route(rejectDisputeContract, async ({ deps, params }) => ({
    data: await decideDispute(deps, params.id, 'rejected'),
  })),
];
