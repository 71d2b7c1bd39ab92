import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { pageQuery } from '../../domain/pagination.js';
import { isProductionKey } from '../../domain/secrets.js';
import { type Auth, actorOf, clientIp, PRODUCTION_KEY_MESSAGE } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { done, ok, okPage } from '../../http/envelope.js';
import { header } from '../../http/headers.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { completeMemberBody, inviteBody } from './schemas.js';
import { completeMemberRegistration, inviteMember, listMembers } from './service.js';

/** `/clients/members`: roles, the member list, invitations and the invited member's registration. */
export function memberRoutes(deps: Deps, auth: Auth) {
  const reader = auth.schemeA({ business: 'optional', area: 'business' });
  const admin = auth.schemeA({ business: 'optional', area: 'member-admin' });
  return new Hono<AppEnv>()
    .get('/roles', reader, (c) =>
      ok(
        c,
        'Member roles retrieved successfully',
        deps.store.all('roles').map((r) => ({ id: r.id, name: r.name })),
      ),
    )
    .get('/', reader, (c) =>
      okPage(
        c,
        'Members retrieved successfully',
        listMembers(deps, c.var.caller.client, queryOf(c, pageQuery)),
      ),
    )
    .post('/', admin, async (c) => {
      const input = await jsonBody(c, inviteBody);
      return ok(
        c,
        'Member invited successfully',
        await inviteMember(deps, actorOf(c), c.var.caller.client, input),
        201,
      );
    })
    .patch('/complete-registration', async (c) => {
      // Only SECRET_KEY: the invited member has no token yet. The secret must belong to the inviting client.
      const secret = header(c, 'secret_key');
      if (!secret) throw new ApiError(401, 'SECRET_KEY is required');
      if (isProductionKey(secret)) throw new ApiError(401, PRODUCTION_KEY_MESSAGE);
      const input = await jsonBody(c, completeMemberBody);
      await completeMemberRegistration(deps, secret, clientIp(c), input);
      return done(c, 'Registration completed successfully');
    });
}
