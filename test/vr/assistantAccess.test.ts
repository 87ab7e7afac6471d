import { SOCKET_CLOSE } from '../../api/ws';
import { startSession } from '../../domain/identity/sessions';
import { TokenService } from '../../lib/tokens';
import { createAccount, bearer, type Account } from '../support/factories';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { startStack, type TestStack } from '../support/stack';
import { openSocket, vrOrg, type TestSocket } from '../support/vr';

/**
 * An open /assistant socket is closed within a second of the end of the access it was opened with (its token's
 * expiry, a revocation, the organisation's entitlements, the caller's vr.play), whichever dyno the change is made
 * on (pub/sub), and every message is checked before it is answered.
 */
describe('open assistant sockets when access ends', () => {
  let stack: TestStack;
  let other: TestStack;
  let ai: FakeOpenAI;
  let root: Account;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Fine.'] });
    stack = await startStack({ workers: false, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl } });
    other = await startStack({ sharing: stack, workers: false });
    root = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(async () => {
    await other.close();
    await stack.close();
    await ai.close();
  });

  /** Opens a socket on the first dyno and checks it answers. */
  async function connected(account: Account, token = account.tokens.accessToken): Promise<TestSocket> {
    const socket = await openSocket(stack, '/assistant', token);
    socket.send({ type: 'user_message', text: 'Hello?' });
    await socket.next('message');
    return socket;
  }

  /** Runs the change on the other dyno; the socket must be closed (code, reason) within a second of its answer. */
  async function closedBy(
    socket: TestSocket,
    change: () => Promise<{ status: number }>,
    code: number,
    reason: string,
  ): Promise<void> {
    const res = await change();
    expect(res.status).toBeLessThan(300);
    const answeredAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      socket.closed,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 1000))),
    ]);
    clearTimeout(timer);
    expect(closed).toEqual({ code, reason });
    expect(Date.now() - answeredAt).toBeLessThan(1000);
  }

  it('closes on log-out (4401 token_revoked)', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    const socket = await connected(member);
    await closedBy(
      socket,
      () => other.http.post('/auth/logout').set(member.auth),
      SOCKET_CLOSE.tokenRevoked.code,
      'token_revoked',
    );
  });

  it('closes when its session is ended from another device', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    const socket = await connected(member);
    const secondDevice = await startSession(stack.services, stack.services.orm.em.fork(), member.user, member.tenantId);
    const sid = stack.services.tokens.verifyAccess(member.tokens.accessToken).sid;
    await closedBy(
      socket,
      () => other.http.delete(`/users/me/sessions/${sid}`).set(bearer(secondDevice.accessToken)),
      SOCKET_CLOSE.tokenRevoked.code,
      'token_revoked',
    );
  });

  it('closes when the account is disabled', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await connected(org.members[0]);
    await closedBy(
      socket,
      () => other.http.post(`/admin/users/${org.members[0].user.id}/disable`).set(root.auth),
      SOCKET_CLOSE.tokenRevoked.code,
      'token_revoked',
    );
  });

  it('closes when the account is deleted (DELETE /auth/me)', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    const socket = await connected(member);
    await closedBy(
      socket,
      () => other.http.delete('/auth/me').set(member.auth).send({ password: member.password }),
      SOCKET_CLOSE.tokenRevoked.code,
      'token_revoked',
    );
  });

  it('closes when the member is removed from the organisation', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await connected(org.members[0]);
    await closedBy(
      socket,
      () => other.http.delete(`/orgs/${org.admin.tenantId}/members/${org.members[0].user.id}`).set(org.admin.auth),
      SOCKET_CLOSE.tokenRevoked.code,
      'token_revoked',
    );
  });

  it('closes when the organisation is suspended (4403 organization_suspended)', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await connected(org.members[0]);
    await closedBy(
      socket,
      () => other.http.post(`/admin/organizations/${org.admin.tenantId}/suspend`).set(root.auth).send({}),
      SOCKET_CLOSE.organizationSuspended.code,
      'organization_suspended',
    );
  });

  it('closes when the subscription loses the vr module (4403 module_not_entitled)', async () => {
    const org = await vrOrg(stack, 1);
    const socket = await connected(org.members[0]);
    await closedBy(
      socket,
      () => other.http.put(`/api/subscription/${org.admin.tenantId}`).set(root.auth).send({ tier: 'free' }),
      SOCKET_CLOSE.moduleNotEntitled.code,
      'module_not_entitled',
    );
  });

  it('closes when the access token it was opened with expires (4401 token_expired), message or not', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    // A token of the member's session that lives 1-2 s (exp is in whole seconds).
    const { sid } = stack.services.tokens.verifyAccess(member.tokens.accessToken);
    const { token, claims } = new TokenService(stack.services.config.JWT_SECRET, 2).signAccess({
      userId: member.user.id,
      tenantId: member.tenantId,
      sid,
    });
    const socket = await connected(member, token);
    const asked = ai.requests.length;
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      socket.closed,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 3000))),
    ]);
    clearTimeout(timer);
    expect(closed).toEqual({ code: SOCKET_CLOSE.tokenExpired.code, reason: 'token_expired' });
    // Within a second of the expiry, and the same token is refused on HTTP (what the client refreshes on).
    expect(Date.now()).toBeGreaterThanOrEqual(claims.exp * 1000);
    expect(Date.now()).toBeLessThan(claims.exp * 1000 + 1000);
    const http = await stack.http.get('/runtime/rooms').set(bearer(token));
    expect([http.status, http.body.code]).toEqual([401, 'token_expired']);
    expect(ai.requests.length).toBe(asked);
    // A fresh token opens a new socket.
    (await connected(member)).close();
  });

  it('closes when a role change takes vr.play from the member (4403 permission_denied), and only their socket', async () => {
    const org = await vrOrg(stack, 2);
    const [member, colleague] = org.members;
    const socket = await connected(member);
    const kept = await connected(colleague);
    const role = await stack.http
      .post('/rbac/roles')
      .set(org.admin.auth)
      .send({ key: 'observer', name: 'Observer', permissions: ['vr.rooms.read'] });
    expect(role.status).toBe(201);
    await closedBy(
      socket,
      () =>
        other.http
          .put(`/rbac/members/${member.user.id}/roles`)
          .set(org.admin.auth)
          .send({ roles: ['observer'] }),
      SOCKET_CLOSE.permissionDenied.code,
      'permission_denied',
    );
    expect((await stack.http.get('/runtime/rooms').set(member.auth)).status).toBe(403);
    kept.send({ type: 'user_message', text: 'Still there?' });
    await kept.next('message', 1);
    kept.close();
  });

  it("closes when vr.play is taken from the member's role (4403 permission_denied)", async () => {
    const org = await vrOrg(stack, 1);
    const socket = await connected(org.members[0]);
    const roles = await stack.http.get('/rbac/roles').set(org.admin.auth);
    const memberRole = (roles.body.items as { id: string; key: string; permissions: string[] }[]).find(
      (r) => r.key === 'member',
    )!;
    const permissions = memberRole.permissions.filter((p) => p !== 'vr.play');
    await closedBy(
      socket,
      () => other.http.put(`/rbac/roles/${memberRole.id}/permissions`).set(org.admin.auth).send({ permissions }),
      SOCKET_CLOSE.permissionDenied.code,
      'permission_denied',
    );
  });

  it('checks every message: a revocation whose event was missed closes the socket before anything is answered', async () => {
    const org = await vrOrg(stack, 1);
    const member = org.members[0];
    const socket = await connected(member);
    const asked = ai.requests.length;
    // Written to the cache without publishing the event (as if this dyno's subscription had missed it).
    const { sid } = stack.services.tokens.verifyAccess(member.tokens.accessToken);
    await stack.services.redis.set(stack.services.key('rv', 'sid', sid), String(Date.now()), 'PX', 60_000);
    socket.send({ type: 'user_message', text: 'Still there?' });
    expect(await socket.closed).toEqual({ code: SOCKET_CLOSE.tokenRevoked.code, reason: 'token_revoked' });
    expect(ai.requests.length).toBe(asked);
    expect(socket.received.filter((m) => m.type === 'message')).toHaveLength(1);
  });
});
