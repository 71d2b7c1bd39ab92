import type { FailedTransferData, FieldError } from '../domain/errors.js';

/**
 * The error envelope: `{status: false, message, data: null}`, plus `errors` on validation failures,
 * `errorCode` and the references in `data` on a failed transfer, and `waiting` on a drain that gave up.
 */
export function errorBody(
  message: string,
  errors?: FieldError[],
  errorCode?: string,
  waiting?: object,
  data?: FailedTransferData,
) {
  const body: {
    status: false;
    message: string;
    data: FailedTransferData | null;
    errors?: FieldError[];
    errorCode?: string;
    waiting?: object;
  } = {
    status: false,
    message,
    data: data ?? null,
  };
  if (errors) body.errors = errors;
  if (errorCode !== undefined) body.errorCode = errorCode;
  if (waiting !== undefined) body.waiting = waiting;
  return body;
}
