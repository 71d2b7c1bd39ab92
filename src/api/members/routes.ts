import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import type { Auth } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok } from '../../http/envelope.js';

/** `/clients/members`: member roles (invitations and the member list come with the members issue). */
export function memberRoutes(deps: Deps, auth: Auth) {
  const reader = auth.schemeA({ business: 'optional', area: 'business' });
  return new Hono<AppEnv>().get('/roles', reader, (c) =>
    ok(
      c,
      'Member roles retrieved successfully',
      deps.store.all('roles').map((r) => ({ id: r.id, name: r.name })),
    ),
  );
}
