import { decideDispute } from '../../api/disputes/service.js';
import { defineRoute, type Route, reply } from '../../http/route.js';
import { dispute } from './schemas.js';

const TAG = 'Disputes';
const disputeId = { description: 'the `id` of the dispute' };

/** `/disputes/{id}/…`: the bank's side of a dispute, decided. */
export const disputeRoutes: Route[] = [
  defineRoute({
    operationId: 'resolveDispute',
    method: 'post',
    path: '/disputes/{id}/resolve',
    summary: 'Resolve a dispute',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: disputeId },
    responses: {
      200: reply('Dispute resolved', dispute),
      404: '`Dispute not found`',
      409: '`Dispute is already …`',
    },
    handle: async ({ deps, params }) => ({ data: await decideDispute(deps, params.id, 'resolved') }),
  }),
  defineRoute({
    operationId: 'rejectDispute',
    method: 'post',
    path: '/disputes/{id}/reject',
    summary: 'Reject a dispute',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: disputeId },
    responses: {
      200: reply('Dispute rejected', dispute),
      404: '`Dispute not found`',
      409: '`Dispute is already …`',
    },
    handle: async ({ deps, params }) => ({ data: await decideDispute(deps, params.id, 'rejected') }),
  }),
];
