import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn as signedIn } from '../../src/contract/api/auth.js';
import { business } from '../../src/contract/api/business.js';
import { memberRole, member as memberView } from '../../src/contract/api/members.js';
import { outboxMessage } from '../../src/contract/control/outbox.js';
import { errorEnvelope } from '../../src/contract/wire.js';
import { dataOf, pageOf } from '../support/answers.js';
import { http, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

let dir: string;
let sandbox: SandboxProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-lifecycle-'));
  sandbox = await startProcess(['--data', join(dir, 'db.json')]);
});
afterAll(async () => {
  await stop(sandbox);
  await rm(dir, { recursive: true, force: true });
});

async function signIn(email: string, password: string) {
  const res = await http(sandbox, 'POST', '/api/v1/auth/signin', { body: { email, password } });
  return { status: res.status, token: res.status === 200 ? dataOf(res, signedIn).accessToken : '' };
}

describe('account lifecycle against the real process', () => {
  it('invites a member, who completes registration with the emailed token and signs in with the role', async () => {
    const owner = await signIn(A.owner.email, A.owner.password);
    const headers = { authorization: `Bearer ${owner.token}`, SECRET_KEY: A.secretKey, businessId: A.a1.id };
    const roles = pageOf(
      await http(sandbox, 'GET', '/api/v1/clients/members/roles', { headers }),
      memberRole,
    ).data;
    const viewerRole = roles.find((r) => r.name === 'Viewer');
    const invite = await http(sandbox, 'POST', '/api/v1/clients/members', {
      headers,
      body: { email: 'Newcomer@Adebayo.test', memberRoleId: viewerRole?.id },
    });
    expect(invite.status).toBe(201);
    expect(invite.body).toEqual({ status: true, message: 'Invitation sent successfully' });

    const outbox = pageOf(
      await http(sandbox, 'GET', '/__sandbox/outbox?type=member_invitation&to=newcomer@adebayo.test'),
      outboxMessage,
    ).data;
    const token = outbox[0]?.data.authorizationToken ?? '';
    expect(token.length).toBeGreaterThan(20);

    const complete = await http(sandbox, 'PATCH', '/api/v1/clients/members/complete-registration', {
      headers: { SECRET_KEY: A.secretKey },
      body: {
        authorizationToken: token,
        firstName: 'Chidi',
        lastName: 'Eze',
        phoneNo: '+2348031234567',
        password: 'long-password',
      },
    });
    expect(complete.status).toBe(200);
    expect(complete.body).toEqual({ status: true, message: 'Registration completed successfully' });

    const member = await signIn('newcomer@adebayo.test', 'long-password');
    expect(member.status).toBe(200);
    const members = await http(sandbox, 'GET', '/api/v1/clients/members?limit=100', { headers });
    expect(pageOf(members, memberView).data.find((m) => m.email === 'newcomer@adebayo.test')).toMatchObject({
      firstName: 'Chidi',
      lastName: 'Eze',
      isActive: true,
      clientMemberRole: { id: viewerRole?.id, name: 'Viewer' },
    });
    const memberHeaders = {
      authorization: `Bearer ${member.token}`,
      SECRET_KEY: A.secretKey,
      businessId: A.a1.id,
    };
    expect(
      (await http(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers: memberHeaders }))
        .status,
    ).toBe(200);
    const refused = await http(sandbox, 'POST', '/api/v1/clients/business/payouts', {
      headers: memberHeaders,
      body: { accountName: 'X Y', accountNumber: '0123456789', bankName: 'GTBank', bankCode: '058' },
    });
    expect(refused.status).toBe(403);
  });

  it('stores registration files beside the data file and serves them back; a fake PNG is refused', async () => {
    const owner = await signIn(A.owner.email, A.owner.password);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const form = (photo: Blob, name: string) => {
      const fd = new FormData();
      const fields = {
        businessId: A.a2.id,
        bvn: '22212345678',
        residentialAddress: '3 Marina Road, Lagos',
        stateId: 'state_24',
        otp: '123456',
        password: A.owner.password,
      };
      for (const [k, v] of Object.entries(fields)) fd.set(k, v);
      fd.set('photoId', photo, name);
      return fd;
    };
    const send = (fd: FormData) =>
      fetch(`${sandbox.url}/api/v1/clients/business/complete-registration`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${owner.token}`, SECRET_KEY: A.secretKey },
        body: fd,
      });

    const fake = await send(form(new Blob(['just text, not an image']), 'id.png'));
    expect(fake.status).toBe(400);
    expect(errorEnvelope().parse(await fake.json()).message).toBe('photoId must be a JPEG or PNG image');

    const real = await send(form(new Blob([png]), 'passport.png'));
    expect(real.status).toBe(200);
    expect(await real.json()).toEqual({
      status: true,
      message: 'Business registration completed successfully',
    });
    const list = await http(sandbox, 'GET', '/api/v1/clients/business', {
      headers: { authorization: `Bearer ${owner.token}`, SECRET_KEY: A.secretKey, businessId: A.a1.id },
    });
    const a2 = pageOf(list, business).data.find((b) => b.id === A.a2.id);
    expect(a2?.isApproved).toBe(false);
    expect(a2).toMatchObject({ stateId: 'state_24', state: { id: 'state_24', name: 'Lagos' } });
    // The business details of A2 show the same record.
    const details = await http(sandbox, 'GET', '/api/v1/clients/business/details', {
      headers: { authorization: `Bearer ${owner.token}`, SECRET_KEY: A.secretKey, businessId: A.a2.id },
    });
    expect(details.status).toBe(200);
    expect(dataOf(details, business)).toEqual(a2);
    expect(a2?.photoIdUrl.startsWith(sandbox.url)).toBe(true);
    const file = await fetch(a2?.photoIdUrl ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    const traversal = await fetch(`${sandbox.url}/uploads/${A.a2.id}/..%2F..%2Fdb.json`);
    expect(traversal.status).toBe(404);
  });
});
