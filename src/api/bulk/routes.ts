import { type Context, Hono } from 'hono';
import type { Deps } from '../../deps.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok, okPage } from '../../http/envelope.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { bulkListQuery, createBulkBody, processBody, reprocessBody } from './schemas.js';
import {
  ALREADY_PROCESSING,
  type ClaimOutcome,
  createBulk,
  getBulk,
  listBulk,
  processBulk,
  QUEUED,
  reprocessBulk,
} from './service.js';

/** A process or reprocess claim as the bank answers it: 202 queued, or 200 already processing. */
export function claimAnswer(c: Context<AppEnv>, id: string, outcome: ClaimOutcome) {
  return outcome.kind === 'queued'
    ? ok(c, QUEUED, { bulkTransferId: id, jobId: outcome.jobId }, 202)
    : ok(c, ALREADY_PROCESSING, { bulkTransferId: id });
}

/** `/clients/business/customers/funds/bulk-transfer`: batches, with the API key pair (scheme B). */
export function bulkRoutes(deps: Deps, auth: Auth, engine: BulkProcessor) {
  const keyPair = auth.schemeB({ missingBusinessStatus: 400 });
  // The spec gives 401, not 400, for a missing businessId on get.
  const keyPairOnGet = auth.schemeB({ missingBusinessStatus: 401 });
  const app = new Hono<AppEnv>();
  return app
    .post('/', keyPair, async (c) => {
      const input = await jsonBody(c, createBulkBody);
      return ok(
        c,
        'Bulk transfer created successfully',
        await createBulk(deps, actorOf(c), requiredBusiness(c), input),
        201,
      );
    })
    .get('/', keyPair, (c) =>
      okPage(
        c,
        'Bulk transfers retrieved successfully',
        listBulk(deps, requiredBusiness(c), queryOf(c, bulkListQuery)),
      ),
    )
    .post('/process', keyPair, async (c) => {
      const { bulkTransferId } = await jsonBody(c, processBody);
      const outcome = await processBulk(deps, engine, actorOf(c), requiredBusiness(c), bulkTransferId);
      return claimAnswer(c, bulkTransferId, outcome);
    })
    .post('/reprocess', keyPair, async (c) => {
      const { bulkTransferId, itemId } = await jsonBody(c, reprocessBody);
      const outcome = await reprocessBulk(
        deps,
        engine,
        actorOf(c),
        requiredBusiness(c),
        bulkTransferId,
        itemId,
      );
      return claimAnswer(c, bulkTransferId, outcome);
    })
    .get('/:bulkTransferId', keyPairOnGet, (c) =>
      ok(
        c,
        'Bulk transfer retrieved successfully',
        getBulk(deps, requiredBusiness(c), c.req.param('bulkTransferId')),
      ),
    );
}
