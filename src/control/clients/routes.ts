import { credentialsPage } from '../../bank/tenants/credentials.js';
import { rotateSecret } from '../../bank/tenants/secrets.js';
import { createClient } from '../../bank/tenants/service.js';
import {
  createClientContract,
  credentialsContract,
  rotateSecretContract,
} from '../../contract/control/clients.js';
import { webhookUrlWarnings } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type ControlRuntime, route } from '../runtime.js';

/** The clients: their logins and keys, a fresh isolated one, a new secret key. */
export const clientRoutes: Route<ControlRuntime>[] = [
  route(credentialsContract, ({ deps, query }) => ({ data: credentialsPage(deps.store, query) })),
  route(createClientContract, async ({ deps, c, body }) => {
    if (body.webhookUrl !== undefined) warn(c, ...webhookUrlWarnings(body.webhookUrl));
    return { status: 201, data: await createClient(deps, body) };
  }),
  route(rotateSecretContract, async ({ deps, params }) => ({ data: await rotateSecret(deps, params.id) })),
];
