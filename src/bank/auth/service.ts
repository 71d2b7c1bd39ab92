import type { SignInView } from '../../contract/api/auth.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { expiryClaim, signToken } from '../../domain/jwt.js';
import type { ClientRecord, UserRecord } from '../../domain/records.js';
import { type RoleName, roleName } from '../../domain/roles.js';
import { secureEqual } from '../../domain/secure-compare.js';
import { recordAudit } from '../audits/service.js';

/** A sign-in's answer, and who signed in: the request journal names their client, as for any authenticated call. */
export interface SignedIn {
  view: SignInView;
  caller: { client: ClientRecord; user: UserRecord; role: RoleName };
}

/**
 * Checks email and password (never saying which was wrong; a deactivated member is refused the same way), records
 * the sign-in and issues an access token.
 */
export async function signInUser(
  deps: Deps,
  email: string,
  password: string,
  ipAddress: string,
): Promise<SignedIn> {
  const { store, clock, config, tokens } = deps;
  const user = store.where('users', 'email', email.toLowerCase())[0];
  // Compare even when there is no such user, so the answer takes as long either way.
  const passwordOk = secureEqual(user?.password ?? '\u0000', password);
  if (!user || !passwordOk || !user.isActive) throw new ApiError(401, 'Invalid email or password');
  const client = store.get('clients', user.clientId);
  if (!client) throw new ApiError(401, 'Invalid email or password');
  const role = roleName.catch('Viewer').parse(store.get('roles', user.roleId)?.name);
  const iat = Math.floor(clock.now() / 1000);
  const accessToken = signToken(
    {
      sub: user.id,
      clientId: user.clientId,
      role,
      iat,
      exp: expiryClaim(iat, config.tokenTtl),
      // Which reset it was issued after: one from before the next reset is refused (see `TokenEpoch`).
      ...(tokens.claim === undefined ? {} : { rst: tokens.claim }),
    },
    store.meta().jwtSecret,
  );
  const actor = {
    clientId: user.clientId,
    email: user.email,
    name: `${user.firstName} ${user.lastName}`,
    role,
    ipAddress,
  };
  await store.mutate((tx) =>
    recordAudit(tx, deps, actor, { businessId: null, type: 'auth', action: 'login' }),
  );
  const businesses = store
    .where('businesses', 'clientId', user.clientId)
    .map((b) => ({ id: b.id, businessName: b.businessName, isApproved: b.isApproved }));
  const view = {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNo: user.phoneNo,
    accessToken,
    businesses,
  };
  return { view, caller: { client, user, role } };
}
