import { dispute } from '../api/disputes.js';
import { fixture } from '../examples.js';
import { contract, reply } from '../kit.js';

/** One of the bank's two decisions on an open dispute, as its own route. */
const decision = <const V extends 'resolve' | 'reject'>(outcome: 'resolved' | 'rejected', verb: V) =>
  contract({
    operationId: `${verb}Dispute`,
    method: 'post',
    path: `/disputes/{id}/${verb}`,
    summary: `${verb === 'resolve' ? 'Resolve' : 'Reject'} a dispute`,
    description: `The bank's decision on an open dispute: its status becomes \`${outcome}\`, which the business's \`GET /api/v1/clients/business/disputes\` then shows. A dispute already decided: 409.`,
    tag: 'Disputes',
    auth: { scheme: 'none' },
    params: {
      id: {
        description: 'the `id` of the dispute (the example is the fixtures’ open dispute of A1)',
        example: fixture.dispute,
      },
    },
    responses: {
      200: reply(`Dispute ${outcome}`, dispute),
      404: '`Dispute not found`',
      409: '`Dispute is already …`',
    },
  });

export const resolveDisputeContract = decision('resolved', 'resolve');
export const rejectDisputeContract = decision('rejected', 'reject');
