import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RoleName } from '../domain/roles.js';
import type { BusinessRecord, ClientRecord, UserRecord } from '../store/records.js';
import type { FiredRule } from './request-log.js';
import type { Route } from './route.js';

/** Who is calling, once scheme A or B has accepted the credentials. */
export interface Caller {
  client: ClientRecord;
  /** The signed-in user (scheme A); null for the API key pair (scheme B). */
  user: UserRecord | null;
  role: RoleName;
}

/** Hono's environment for every route of the app. */
export type AppEnv = {
  /** What @hono/node-server passes; absent for in-process `app.request()` calls. */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  Variables: {
    requestId: string;
    caller: Caller;
    /** The business of the `businessId` header, where a route takes one. */
    business: BusinessRecord | undefined;
    /** The route that answers, once it is known. */
    route: Route;
    /** Where production would refuse what the sandbox accepted (`warn()`): the `x-sandbox-warning` headers. */
    warnings: string[] | undefined;
    /** The size in bytes of a form body the route read. */
    bodySize: number | undefined;
    /** The scenario rule that fired for this request. */
    scenario: FiredRule | undefined;
  };
};
