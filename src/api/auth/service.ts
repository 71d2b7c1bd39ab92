import type { Deps } from '../../deps.js';
import { signToken } from '../../domain/jwt.js';
import { secureEqual } from '../../domain/secure-compare.js';
import { ApiError } from '../../http/envelope.js';
import { businessView } from '../business/service.js';

/** Checks email and password (never saying which was wrong) and issues an access token. */
export function signIn(deps: Deps, email: string, password: string) {
  const { store, clock, config } = deps;
  const user = store.where('users', 'email', email.toLowerCase())[0];
  // Compare even when there is no such user, so the answer takes as long either way.
  const passwordOk = secureEqual(user?.password ?? '\u0000', password);
  if (!user || !passwordOk || !user.isActive) throw new ApiError(401, 'Invalid email or password');
  const role = store.get('roles', user.roleId)?.name ?? 'Viewer';
  const iat = Math.floor(clock.now() / 1000);
  const accessToken = signToken(
    { sub: user.id, clientId: user.clientId, role, iat, exp: iat + config.tokenTtlSeconds },
    store.meta().jwtSecret,
  );
  const businesses = store.where('businesses', 'clientId', user.clientId).map((b) => businessView(deps, b));
  return { accessToken, businesses };
}
