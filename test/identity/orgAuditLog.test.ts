import { audit } from '../../domain/platform/audit';
import { createAccount, addMember, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

interface Entry {
  id: string;
  action: string;
  actorId: string | null;
  tenantId: string | null;
  targetType: string | null;
  targetId: string | null;
  createdAt: string;
}

/**
 * An organisation's audit log for its owners and admins: the identity events of the organisation land there with
 * its id, filters and keyset pages, 403 for members, 404 for other organisations, CSV (formulas neutralised) and
 * JSON lines exports, streamed.
 */
describe('organisation audit log', () => {
  let stack: TestStack;
  let owner: Account;
  let admin: Account;
  let member: Account;
  let promoted: Account;
  let started: string;

  beforeAll(async () => {
    stack = await startStack({ workers: false, env: relaxedLimits });
    owner = await createAccount(stack, { tier: 'business' });
    admin = await addMember(stack, owner, 'admin');
    member = await addMember(stack, owner, 'member');
    promoted = await addMember(stack, owner, 'member');
    started = new Date(Date.now() - 1000).toISOString();
    // Events of the organisation, through the routes: a sign-in, a role change, an invitation, an app password,
    // a factor enrolment started by a member.
    const login = await stack.http.post('/auth/login').send({ email: member.email, password: member.password });
    expect(login.status).toBe(200);
    expect(
      (
        await stack.http
          .patch(`/orgs/${owner.tenantId}/members/${promoted.user.id}/role`)
          .set(owner.auth)
          .send({ role: 'admin' })
      ).status,
    ).toBe(200);
    expect(
      (
        await stack.http
          .post(`/orgs/${owner.tenantId}/invite`)
          .set(admin.auth)
          .send({ email: 'invitee@example.test', role: 'member' })
      ).status,
    ).toBe(201);
    expect(
      (
        await stack.http
          .post('/auth/app-passwords')
          .set(owner.auth)
          .send({ name: 'Phone', scopes: ['caldav'] })
      ).status,
    ).toBe(201);
    expect((await stack.http.post('/auth/mfa/totp').set(member.auth)).status).toBe(200);
  }, 30_000);
  afterAll(() => stack?.close());

  const list = (query: Record<string, string | number>, as: Account = admin, org = owner.tenantId) =>
    stack.http.get(`/orgs/${org}/audit-log`).query(query).set(as.auth);

  it("shows the organisation's identity events to owners and admins, with its id", async () => {
    const res = await list({ since: started });
    expect(res.status).toBe(200);
    const items = res.body.items as Entry[];
    const actions = items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'auth.login',
        'org.member_roles_changed',
        'org.invitation_sent',
        'app_password.created',
        'mfa.totp_enrolment_started',
      ]),
    );
    expect(items.every((e) => e.tenantId === owner.tenantId)).toBe(true);
    // Newest first.
    const times = items.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await list({ since: started }, owner)).status).toBe(200);
  });

  it('is for owners and admins only; another organisation answers 404', async () => {
    expectProblem(await list({}, member), 403, 'permission_denied');
    const stranger = await createAccount(stack);
    expectProblem(await list({}, stranger), 404, 'not_found');
    // The stranger's own log holds none of this organisation's entries.
    const own = await list({}, stranger, stranger.tenantId);
    expect(own.status).toBe(200);
    expect((own.body.items as Entry[]).every((e) => e.tenantId === stranger.tenantId)).toBe(true);
    expectProblem(
      await stack.http.get(`/orgs/${owner.tenantId}/audit-log/export`).set(stranger.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get(`/orgs/${owner.tenantId}/audit-log/export`).set(member.auth),
      403,
      'permission_denied',
    );
  });

  it('filters by actor, action, target and time', async () => {
    const byAction = (await list({ action: 'org.member_roles_changed' })).body.items as Entry[];
    expect(byAction).toHaveLength(1);
    expect(byAction[0]).toMatchObject({ actorId: owner.user.id, targetId: promoted.user.id });

    const byActor = (await list({ actorId: member.user.id, since: started })).body.items as Entry[];
    expect(byActor.map((e) => e.action).sort()).toEqual(['auth.login', 'mfa.totp_enrolment_started']);

    const byTarget = (await list({ targetType: 'user', targetId: promoted.user.id })).body.items as Entry[];
    expect(byTarget.map((e) => e.action)).toEqual(['org.member_roles_changed']);

    expect((await list({ until: started })).body.items.filter((e: Entry) => e.createdAt >= started)).toEqual([]);
    expect((await list({ since: new Date(Date.now() + 60_000).toISOString() })).body.items).toEqual([]);
    expectFieldErrors(await list({ action: 'DROP TABLE' }), 'action');
    expectFieldErrors(await list({ actorId: 'nope' }), 'actorId');
    expectFieldErrors(await list({ since: 'yesterday' }), 'since');
    expectFieldErrors(await list({ cursor: 'not-a-cursor' }), 'cursor');
  });

  it('pages with an opaque cursor, without repeats or gaps', async () => {
    const all = (await list({ limit: 200 })).body.items as Entry[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(cursor ? { limit: 2, cursor } : { limit: 2 });
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...(page.body.items as Entry[]).map((e) => e.id));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.id));
  });

  it('exports CSV with formulas neutralised and JSON lines, and records the export', async () => {
    // An entry whose target starts a formula (as a crafted target id would).
    const em = stack.services.orm.em.fork();
    audit(em, {
      action: 'org.test_event',
      tenantId: owner.tenantId,
      actorId: owner.user.id,
      targetType: 'user',
      targetId: '=HYPERLINK("https://evil.test")',
    });
    await em.flush();

    const csv = await stack.http
      .get(`/orgs/${owner.tenantId}/audit-log/export`)
      .query({ format: 'csv', action: 'org.test_event' })
      .set(admin.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="audit-log-.*\.csv"/);
    const lines = (csv.body as string).trim().split('\n');
    expect(lines[0]).toBe('id,createdAt,action,actorId,targetType,targetId,ip,data');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.test"")"`);

    const jsonl = await stack.http
      .get(`/orgs/${owner.tenantId}/audit-log/export`)
      .query({ since: started })
      .set(owner.auth)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done(null, text));
      });
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const entries = (jsonl.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Entry);
    const listed = (await list({ since: started, limit: 200 })).body.items as Entry[];
    // The export recorded itself first: the listing made after it holds that entry too.
    expect(listed.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    expect(entries[0]).toMatchObject({ action: 'org.audit_exported', actorId: owner.user.id });
    expect(listed.filter((e) => e.action === 'org.audit_exported')).toHaveLength(2);
    expectFieldErrors(
      await stack.http.get(`/orgs/${owner.tenantId}/audit-log/export`).query({ format: 'xml' }).set(owner.auth),
      'format',
    );
  });
});
