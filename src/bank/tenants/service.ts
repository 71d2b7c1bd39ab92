import type { NewClient } from '../../contract/control/clients.js';
import type { Deps } from '../../deps.js';
import { isoAt } from '../../domain/clock.js';
import type { ClientRecord, UserRecord, VirtualAccountRecord } from '../../domain/records.js';
import { systemReference } from '../../domain/references.js';
import type { RoleName } from '../../domain/roles.js';
import { newAccountNumber } from '../accounts/accounts.js';
import { refuseSelfPointing } from '../settings/service.js';
import { virtualAccountView } from '../virtual-accounts/service.js';
import { credentialsOf } from './credentials.js';

/**
 * A fresh client of its own, for one test worker: its own keys, an owner, an approved business with a payment
 * account and a balance, and the members asked for. Nothing it does is visible to any other client, so parallel
 * tests can share one sandbox without resets. Answers like one entry of `GET /__sandbox/credentials`, plus a
 * permanent virtual account of the business (`virtualAccount`), so that an incoming payment needs no API call first.
 */
export async function createClient(deps: Deps, input: NewClient) {
  if (input.webhookUrl !== undefined) refuseSelfPointing(deps, input.webhookUrl);
  const client = await deps.store.mutate((tx) => {
    const random = tx.random();
    const tag = random.hex(8);
    const createdAt = isoAt(deps.clock);
    const record: ClientRecord = {
      id: random.uuid(),
      name: input.name ?? `Tenant ${tag}`,
      email: `owner-${tag}@tenant.test`,
      publicKey: `pk_sandbox_${random.hex(32)}`,
      secretKey: `sk_sandbox_${random.hex(32)}`,
      retiredSecrets: [],
      webhookUrl: input.webhookUrl ?? null,
      webhookAuthKey: `whk_sandbox_${random.hex(32)}`,
      billers: [],
      createdAt,
    };
    tx.put('clients', record);
    const roleId = (name: RoleName) => {
      const role = tx.where('roles', 'name', name)[0];
      if (!role) throw new Error(`the state has no ${name} role`);
      return role.id;
    };
    const people: { role: RoleName; isOwner: boolean }[] = [
      { role: 'Admin', isOwner: true },
      ...(input.members ?? []).map((role) => ({ role, isOwner: false })),
    ];
    people.forEach((p, i) => {
      const user: UserRecord = {
        id: random.uuid(),
        clientId: record.id,
        email: p.isOwner ? record.email : `${p.role.toLowerCase()}-${i}-${tag}@tenant.test`,
        password: `Sandbox-${random.hex(10)}`,
        firstName: p.isOwner ? 'Tenant' : p.role,
        lastName: p.isOwner ? 'Owner' : `Member ${i}`,
        phoneNo: `+234803${random.digits(7)}`,
        roleId: roleId(p.role),
        isOwner: p.isOwner,
        isActive: true,
        createdAt,
      };
      tx.put('users', user);
    });
    const balance = input.balance ?? 500_000_000;
    const businessId = random.uuid();
    const businessName = `${record.name} Business`;
    const businessAccount = newAccountNumber(tx, deps);
    tx.put('businesses', {
      id: businessId,
      clientId: record.id,
      businessName,
      bvn: random.digits(11),
      photoIdUrl: '',
      businessDocumentsUrls: [],
      isApproved: true,
      residentialAddress: '1 Sandbox Close, Lagos',
      stateId: 'state_24',
      countryId: 'NG',
      isNewBusiness: false,
      createdAt,
      account: {
        accountNumber: businessAccount,
        accountType: 'current',
        customerId: random.digits(7),
      },
      openingBalance: balance,
      balance,
    });
    // Ready for an incoming payment: the store does not see the business's own number yet, so it is passed by.
    let accountNumber = newAccountNumber(tx, deps);
    while (accountNumber === businessAccount) accountNumber = newAccountNumber(tx, deps);
    const virtualAccount: VirtualAccountRecord = {
      id: random.uuid(),
      clientId: record.id,
      businessId,
      accountNumber,
      accountName: 'Sandbox Customer',
      firstName: 'Sandbox',
      lastName: 'Customer',
      type: 'permanent',
      clientRef: `sandbox-${tag}`,
      systemRef: systemReference(random),
      createdAt,
      expiresAt: null,
      reservedAmount: null,
      usedBy: null,
    };
    tx.put('virtualAccounts', virtualAccount);
    return { record, virtualAccount };
  });
  return {
    ...credentialsOf(deps.store, client.record),
    virtualAccount: virtualAccountView(client.virtualAccount),
  };
}
