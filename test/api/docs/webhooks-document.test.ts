import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, expect, it } from 'vitest';
import type { JsonObject, OpenApiDocument } from '../../../src/openapi/document.js';
import { startReceiver } from '../../support/receiver.js';
import { memorySandbox } from '../../support/sandbox.js';

// The bank's document declares what the bank sends as well as what it answers: the incoming-payment notification,
// under OpenAPI 3.1's `webhooks`, held here against a delivery a real receiver got.

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;

const sandbox = await memorySandbox();
const receiver = await startReceiver();
afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

const doc = (await (await sandbox.app.request('/openapi.json')).json()) as OpenApiDocument;
const post = doc.webhooks?.incomingPayment?.post as JsonObject & {
  parameters: { name: string; in: string; required: boolean }[];
  requestBody: { required: boolean; content: Record<string, { schema: JsonObject }> };
  responses: Record<string, unknown>;
};

it('declares the incoming-payment notification: a POST with the AUTH-KEY header, a JSON body, acknowledged by 200', () => {
  expect(doc.openapi).toMatch(/^3\.1\./);
  expect(post.parameters).toContainEqual(
    expect.objectContaining({ name: 'AUTH-KEY', in: 'header', required: true }),
  );
  expect(post.requestBody.required).toBe(true);
  expect(Object.keys(post.requestBody.content)).toEqual(['application/json']);
  expect(Object.keys(post.responses)).toEqual(['200', 'default']);
});

it('describes what a receiver gets: the payload a delivery carries fits its schema, and its AUTH-KEY is the key', async () => {
  const me = await sandbox.newClient({ webhookUrl: receiver.url });
  await sandbox.incomingPayment({
    accountNumber: me.virtualAccount.accountNumber,
    amount: 500_000,
    narration: 'Inv 7',
  });
  await sandbox.drain();
  const [got] = receiver.received;
  expect(got?.headers['auth-key']).toBe(me.webhookAuthKey);
  expect(got?.headers['content-type']).toBe('application/json');
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({
    $id: 'https://sandbox.test/openapi.json',
    components: { schemas: doc.components.schemas },
  });
  const schema = post.requestBody.content['application/json']?.schema ?? {};
  const ref = String(schema.$ref ?? '');
  const validate = ajv.compile({ $ref: `https://sandbox.test/openapi.json${ref}` });
  expect(validate(got?.body), JSON.stringify(validate.errors)).toBe(true);
  // Every field the schema names arrives, and no other: exactly the spec's payload.
  const named = doc.components.schemas[ref.split('/').at(-1) ?? ''] as {
    properties: Record<string, unknown>;
  };
  expect(Object.keys(got?.body ?? {}).sort()).toEqual(Object.keys(named.properties).sort());
});
