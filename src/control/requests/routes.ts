import {
  clearRequestsContract,
  getRequestContract,
  requestsContract,
  requestsHarContract,
  searchRequestsContract,
  verifyRequestsContract,
} from '../../contract/control/requests.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { filterOfQuery, findRequests, getRequest, harOf, searchOf, verifyRequests } from './service.js';

/** `/requests`: the request journal. */
export const requestRoutes: Route<ControlRuntime>[] = [
  route(requestsContract, ({ control, query }) => ({
    page: findRequests(control.requests, filterOfQuery(query), query),
  })),
  route(searchRequestsContract, ({ control, body }) => {
    const { filter, page } = searchOf(body);
    return { page: findRequests(control.requests, filter, page) };
  }),
  route(verifyRequestsContract, ({ control, body }) => ({ data: verifyRequests(control.requests, body) })),
  route(requestsHarContract, ({ control, query }) => ({
    json: harOf(control.requests, filterOfQuery(query), control.version),
  })),
  route(getRequestContract, ({ control, params }) => ({ data: getRequest(control.requests, params.id) })),
  route(clearRequestsContract, ({ control }) => ({ data: { deleted: control.requests.clear() } })),
];
