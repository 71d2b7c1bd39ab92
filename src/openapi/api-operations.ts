import type { Operation } from './operation.js';

/** The emulated bank: every route under `/api/v1` not yet defined once (none). */
export const apiOperations: Operation[] = [];
