import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { resolveConfig } from '../../src/config.js';
import {
  contract,
  type DataOf,
  DONE,
  declares,
  deferred,
  done,
  lazy,
  type Params,
  page,
  raw,
  reply,
} from '../../src/contract/kit.js';
import type { AppEnv } from '../../src/http/env.js';
import { mountRoutes } from '../../src/http/mount.js';
import { implementer } from '../../src/http/route.js';

// The contract kit's types are its point: a handler's input comes from its contract, and an answer that does not
// fit the contract's responses does not compile. The `@ts-expect-error` lines below are checked by the type check
// of `npm test` (tsconfig includes test/): each fails the check if the error it expects goes away. The handlers are
// never called; the runtime tests at the end check what `route()` builds.

const item = lazy('KitItem', () => z.strictObject({ id: z.string(), amount: z.number() }));

const getItem = contract({
  operationId: 'getKitItem',
  method: 'get',
  path: '/items/{itemId}/parts/{partId}',
  summary: 'Get an item',
  tag: 'Kit',
  auth: { scheme: 'none' },
  responses: { 200: reply('Item retrieved', item), 404: '`Item not found`' },
});

const createItem = contract({
  operationId: 'createKitItem',
  method: 'post',
  path: '/items',
  summary: 'Create an item',
  tag: 'Kit',
  auth: { scheme: 'A', business: 'header', area: 'business' },
  body: z.object({ amount: z.number() }),
  responses: { 201: reply('Item created', item) },
});

const listItems = contract({
  operationId: 'listKitItems',
  method: 'get',
  path: '/items',
  summary: 'List items',
  tag: 'Kit',
  auth: { scheme: 'none' },
  query: z.object({ page: z.coerce.number() }),
  responses: { 200: page('Items retrieved', item) },
});

const deleteItem = contract({
  operationId: 'deleteKitItem',
  method: 'delete',
  path: '/items/{itemId}',
  summary: 'Delete an item',
  tag: 'Kit',
  auth: { scheme: 'none' },
  responses: { 200: done('Item deleted') },
});

const exportItems = contract({
  operationId: 'exportKitItems',
  method: 'get',
  path: '/items/export',
  summary: 'Export items',
  tag: 'Kit',
  auth: { scheme: 'none' },
  responses: { 200: raw('The items', item) },
});

interface KitRuntime {
  store: Map<string, number>;
}
const route = implementer<KitRuntime>();
const anItem = { id: 'a', amount: 1 };
const onePage = (limit: number) => ({
  totalCount: 1,
  hasNextPage: false,
  hasPreviousPage: false,
  nextPage: 1,
  previousPage: 1,
  limit,
  lastPage: 1,
});

// What compiles.
const routes = [
  route(getItem, ({ params, store }) => {
    const both: string = `${params.itemId}/${params.partId}`;
    return { data: { id: both, amount: store.get(both) ?? 0 } };
  }),
  route(createItem, async ({ body, caller, business }) => {
    const amount: number = body.amount;
    void [caller.client.id, business.id];
    return { status: 201, data: { ...anItem, amount } };
  }),
  route(listItems, ({ query }) => ({
    page: { data: [anItem], pagination: onePage(query.page) },
  })),
  route(deleteItem, () => DONE),
  route(exportItems, () => ({ json: [anItem][0] as { id: string; amount: number } })),
];

// What does not.
const refused = [
  // A status the contract does not document.
  // @ts-expect-error 201 is not one of getItem's success statuses
  route(getItem, () => ({ status: 201, data: anItem })),
  // An error status is not a success answer: errors are thrown (ApiError), never returned.
  // @ts-expect-error 404 documents causes, not an answer
  route(getItem, () => ({ status: 404, data: anItem })),
  // @ts-expect-error a 201-only route must say its status
  route(createItem, async () => ({ data: anItem })),
  // The wrong shape of data.
  // @ts-expect-error amount is a number
  route(getItem, () => ({ data: { id: 'a', amount: '1' } })),
  // @ts-expect-error a field of the schema missing
  route(getItem, () => ({ data: { id: 'a' } })),
  // A page where one item is documented, and one item where a page is.
  // @ts-expect-error getItem answers one item
  route(getItem, () => ({ page: { data: [anItem], pagination: onePage(1) } })),
  // @ts-expect-error listItems answers a page
  route(listItems, () => ({ data: anItem })),
  // A path parameter the path does not have, a body the route does not take, a query it does not read.
  // @ts-expect-error getItem's path has itemId and partId only
  route(getItem, ({ params }) => ({ data: { id: params.nope, amount: 1 } })),
  // @ts-expect-error getItem takes no body
  route(getItem, ({ body }) => ({ data: { id: body.id, amount: 1 } })),
  // @ts-expect-error an unauthenticated route has no caller
  route(getItem, ({ caller }) => ({ data: { id: caller.client.id, amount: 1 } })),
];

type GetParams = Params<'/a/{x}/b/{y}'>;
const params: GetParams = { x: '1', y: '2' };
// @ts-expect-error a template's parameters are all required
const missing: GetParams = { x: '1' };
const listed: DataOf<typeof listItems> = [anItem];
// @ts-expect-error DataOf of a page is its items
const notListed: DataOf<typeof listItems> = anItem;
void [params, missing, listed, notListed, refused];

describe('the contract kit', () => {
  it('joins a contract to its handler, keeping every field of the contract', () => {
    const [get] = routes;
    expect(get).toMatchObject({ operationId: 'getKitItem', method: 'get', path: getItem.path });
    expect(get?.responses).toBe(getItem.responses);
    expect(typeof get?.handle).toBe('function');
  });

  it('hands the handler its runtime and input, and answers what the handler returns', async () => {
    const store = new Map([['x/y', 7]]);
    const answer = routes[0]?.handle({ store, params: { itemId: 'x', partId: 'y' } });
    expect(answer).toEqual({ data: { id: 'x/y', amount: 7 } });
  });

  it('builds a lazy response schema once, on first use, under its name', () => {
    let built = 0;
    const schema = lazy('Counted', () => {
      built += 1;
      return z.string();
    });
    expect(built).toBe(0);
    expect(schema()).toBe(schema());
    expect(built).toBe(1);
    expect(schema.schemaName).toBe('Counted');
  });

  it('builds a deferred request schema when the contract or its route is first read, not at declaration nor mount', () => {
    let built = 0;
    const body = deferred(() => {
      built += 1;
      return z.object({ amount: z.number() });
    });
    const declared = contract({
      operationId: 'deferredKitItem',
      method: 'post',
      path: '/items/deferred',
      summary: 'Create an item later',
      tag: 'Kit',
      auth: { scheme: 'none' },
      body,
      responses: { 200: done('Item created') },
    });
    const mounted = route(declared, ({ body: given }) => {
      const amount: number = given.amount;
      void amount;
      return DONE;
    });
    expect(declares(mounted, 'body')).toBe(true);
    expect(declares(mounted, 'query')).toBe(false);
    mountRoutes(new Hono<AppEnv>(), '/kit', [mounted], [], resolveConfig());
    expect(built).toBe(0);
    expect(mounted.body?.safeParse({ amount: 1 }).success).toBe(true);
    expect(declared.body).toBe(body());
    expect(built).toBe(1);
  });
});
