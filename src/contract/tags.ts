// What each group of operations is, as the documents' tags describe it.

const TAGS: Readonly<Record<string, string>> = {
  // The bank's API.
  Auth: 'Sign-in: the access token of scheme A.',
  Settings: 'The client’s API keys, webhook URL and billers (Admin only where they change).',
  Business:
    'The client’s businesses: details, the payment account and its balance, customers, creation and KYC registration.',
  Transfers:
    'Single transfers from a business’s payment account, named or anonymous; the retrieval reference is the idempotency key.',
  'Bulk transfers':
    'Batches of transfers with the API key pair (scheme B): created, then processed item by item in the background.',
  'Payout accounts': 'The client’s accounts that receive its payouts, three at most.',
  Disputes: 'Disputes raised on a business’s transactions.',
  'Audit logs': 'Every sign-in and change of a business and its client, newest first.',
  'Virtual accounts': 'Accounts that receive payments for a business: static, temporal or single-use.',
  Subscriptions: 'A business’s subscription plans.',
  Members: 'The client’s members, their roles and invitations.',
  // The control API.
  Sandbox:
    'The sandbox as a whole: health, metrics, reset, drain, clients and credentials, the outbox, the request journal and the drift report.',
  'Isolated sandboxes':
    'Worlds of their own in one process: each answers the whole bank API and its control API under `/sandboxes/{id}`.',
  Dashboard: 'The live dashboard and its event stream.',
  State: 'The whole state, exported and imported.',
  Money: 'Balances, approvals and the ledger, as the bank’s back office would set them.',
  'Test data':
    'Values an app under test needs to make up: receiver account numbers that pass the NUBAN check.',
  Bulk: 'Every client’s bulk transfers, as the bank sees them, and a batch’s reprocessing.',
  Webhooks: 'Incoming payments and the webhook deliveries they make, with every attempt.',
  Clock: 'The virtual clock every time-based rule reads.',
  Scenarios: 'Failure rules: the ready scenarios, the active one, and rules put in front of it.',
};

/** The description of a tag; every tag a contract names has one (the documents' tests check it). */
export function tagDescription(tag: string): string {
  const description = TAGS[tag];
  if (description === undefined) throw new Error(`tag ${tag} has no description in src/contract/tags.ts`);
  return description;
}

/** Every tag, in the order above: the bank's API's, then the control API's (the reference pages group by it). */
export const TAG_ORDER: readonly string[] = Object.keys(TAGS);
