import { type PageQuery, paginate } from '../../domain/pagination.js';
import type { ClientRecord } from '../../domain/records.js';
import type { Store } from '../../store/store.js';

/** The logins of every client in the state, shaped as `GET /__sandbox/credentials` returns them. */
export function credentials(store: Store) {
  return store.all('clients').map((client) => credentialsOf(store, client));
}

/** A page of them, in the order the clients were made (the fixtures' first): only the page's are built. */
export function credentialsPage(store: Store, query: PageQuery) {
  const { data, pagination } = paginate(store.all('clients'), query, (client) =>
    credentialsOf(store, client),
  );
  return { clients: data, pagination };
}

/** One client's logins, keys, businesses and members. */
export function credentialsOf(store: Store, client: ClientRecord) {
  const users = store.where('users', 'clientId', client.id);
  const owner = users.find((u) => u.isOwner);
  return {
    clientId: client.id,
    name: client.name,
    email: client.email,
    password: owner?.password ?? '',
    publicKey: client.publicKey,
    secretKey: client.secretKey,
    webhookAuthKey: client.webhookAuthKey,
    businesses: store.where('businesses', 'clientId', client.id).map((b) => ({
      id: b.id,
      businessName: b.businessName,
      isApproved: b.isApproved,
      accountNumber: b.account?.accountNumber ?? null,
      accountBalance: String(b.balance),
    })),
    members: users
      .filter((u) => !u.isOwner)
      .map((u) => ({
        email: u.email,
        password: u.password,
        role: store.get('roles', u.roleId)?.name ?? 'Viewer',
      })),
  };
}
