import type { NewClientCredentials, SandboxHandle } from '../../src/client/handle.js';

/** What an app sends: a transfer of the client's, signed in with the handle's scheme A headers. */
export async function appTransfer(sandbox: SandboxHandle, me: NewClientCredentials, narration: string) {
  const headers = await sandbox.signIn(me);
  return fetch(`${sandbox.url}/api/v1/clients/business/customers/funds/transfer`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 10_000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: narration.slice(0, 40),
      narration,
    }),
  });
}
