import { lazy } from '../../http/route.js';
import { dispute as apiDispute } from '../../openapi/responses.js';

// A dispute, as the bank's API shows it: the API's own schema (src/openapi/responses.ts until the bank's routes
// are defined once too, issue 14).

export const dispute = lazy('Dispute', () => apiDispute);
