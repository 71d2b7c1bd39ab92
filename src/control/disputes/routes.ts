import { dispute } from '../../api/disputes/schemas.js';
import { decideDispute } from '../../api/disputes/service.js';
import { defineRoute, type Route, reply } from '../../http/route.js';

/** One of the bank's two decisions on an open dispute, as its own route. */
const decision = (outcome: 'resolved' | 'rejected', verb: 'resolve' | 'reject') =>
  defineRoute({
    operationId: `${verb}Dispute`,
    method: 'post',
    path: `/disputes/{id}/${verb}`,
    summary: `${verb === 'resolve' ? 'Resolve' : 'Reject'} a dispute`,
    tag: 'Disputes',
    auth: { scheme: 'none' },
    params: { id: { description: 'the `id` of the dispute' } },
    responses: {
      200: reply(`Dispute ${outcome}`, dispute),
      404: '`Dispute not found`',
      409: '`Dispute is already …`',
    },
    handle: async ({ deps, params }) => ({ data: await decideDispute(deps, params.id, outcome) }),
  });

/** `/disputes/{id}/…`: the bank's side of a dispute, decided. */
export const disputeRoutes: Route[] = [decision('resolved', 'resolve'), decision('rejected', 'reject')];
