import { Promotion } from '../../entities/billing/promotion';
import { createAccount, addMember, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

const id = (n: number) => `0190c1d2-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** GET /api/promo/{code}, GET /api/promo, PUT and DELETE /api/promo/{id}. */
describe('promotions', () => {
  let stack: TestStack;
  let admin: Account;
  let member: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    admin = await createAccount(stack, { platformAdmin: true });
    member = await addMember(stack, await createAccount(stack), 'member');
  });
  afterAll(() => stack.close());

  const put = (n: number, body: object) =>
    stack.http
      .put(`/api/promo/${id(n)}`)
      .set(admin.auth)
      .send(body);
  const lookup = (code: string, tier?: string) =>
    stack.http
      .get(`/api/promo/${code}`)
      .set(member.auth)
      .query(tier ? { tier } : {});

  it('creates with PUT on a new id (201), replaces on a known id (200), keeping redemptions', async () => {
    const created = await put(1, {
      code: 'welcome',
      percentOff: 15,
      appliesToTiers: ['pro', 'starter'],
      maxRedemptions: 100,
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/api/promo/${id(1)}`);
    expect(created.body).toMatchObject({
      id: id(1),
      code: 'WELCOME',
      percentOff: 15,
      amountOffCents: null,
      currency: null,
      redemptions: 0,
      active: true,
      appliesToTiers: ['pro', 'starter'],
      maxRedemptions: 100,
      expiresAt: null,
    });

    await stack.services.orm.em
      .fork()
      .nativeUpdate(Promotion, { id: id(1) }, { redemptions: 7, stripeCouponId: 'coupon_old' });
    const replaced = await put(1, { code: 'WELCOME', amountOffCents: 500, currency: 'eur' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      code: 'WELCOME',
      percentOff: null,
      amountOffCents: 500,
      currency: 'EUR',
      appliesToTiers: [],
      maxRedemptions: null,
      redemptions: 7,
    });
    // The old Stripe coupon carried the old discount: the next checkout creates another.
    expect((await stack.services.orm.em.fork().findOneOrFail(Promotion, { id: id(1) })).stripeCouponId).toBeNull();
  });

  it('keeps codes unique case-insensitively (409 promotion_code_taken)', async () => {
    await put(2, { code: 'SUMMER', percentOff: 10 });
    const res = await put(3, { code: 'summer', percentOff: 20 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('promotion_code_taken');
  });

  it('tells a member whether a code is usable now, and why not', async () => {
    await put(10, { code: 'PROONLY', percentOff: 30, appliesToTiers: ['pro'] });
    await put(11, { code: 'OLD', percentOff: 30, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    await put(12, { code: 'GONE', percentOff: 30, maxRedemptions: 2 });
    await stack.services.orm.em.fork().nativeUpdate(Promotion, { id: id(12) }, { redemptions: 2 });
    await put(13, { code: 'PAUSED', percentOff: 30, active: false });

    const ok = await lookup('proonly', 'pro');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      code: 'PROONLY',
      valid: true,
      reason: null,
      percentOff: 30,
      amountOffCents: null,
      currency: null,
      expiresAt: null,
      appliesToTiers: ['pro'],
    });
    expect((await lookup('PROONLY')).body.valid).toBe(true);
    expect((await lookup('PROONLY', 'starter')).body).toMatchObject({ valid: false, reason: 'not_applicable' });
    expect((await lookup('old')).body).toMatchObject({ valid: false, reason: 'expired' });
    expect((await lookup('GONE')).body).toMatchObject({ valid: false, reason: 'exhausted' });
    for (const code of ['PAUSED', 'NOSUCHCODE']) {
      const res = await lookup(code);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await lookup('x')).status).toBe(400);
    expect((await lookup('PROONLY', 'Gold!')).status).toBe(400);
    expect((await stack.http.get('/api/promo/PROONLY')).status).toBe(401);
  });

  it('lists promotions page by page for administrators', async () => {
    await put(20, { code: 'PAGE1', percentOff: 5 });
    await put(21, { code: 'PAGE2', percentOff: 5 });
    const codes: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await stack.http
        .get('/api/promo')
        .set(admin.auth)
        .query({ limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      codes.push(...res.body.items.map((p: { code: string }) => p.code));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(codes).toEqual(expect.arrayContaining(['PAGE1', 'PAGE2', 'SUMMER']));
    expect(new Set(codes).size).toBe(codes.length);
    expect((await stack.http.get('/api/promo').set(admin.auth).query({ limit: 0 })).status).toBe(400);
    expect((await stack.http.get('/api/promo').set(admin.auth).query({ cursor: 'abc' })).status).toBe(400);
  });

  it('deletes a promotion (204), then 404', async () => {
    await put(30, { code: 'BYE', percentOff: 5 });
    expect((await stack.http.delete(`/api/promo/${id(30)}`).set(admin.auth)).status).toBe(204);
    expect((await lookup('BYE')).status).toBe(404);
    expect((await stack.http.delete(`/api/promo/${id(30)}`).set(admin.auth)).status).toBe(404);
  });

  it.each([
    [{ code: 'BOTH', percentOff: 10, amountOffCents: 100, currency: 'EUR' }, 'percentOff'],
    [{ code: 'NEITHER' }, 'percentOff'],
    [{ code: 'NOCUR', amountOffCents: 100 }, 'currency'],
    [{ code: 'PCTCUR', percentOff: 10, currency: 'EUR' }, 'currency'],
    [{ code: 'HUGE', percentOff: 150 }, 'percentOff'],
    [{ code: 'a', percentOff: 10 }, 'code'],
    [{ code: 'SPACE BAR', percentOff: 10 }, 'code'],
    [{ code: 'TIERS', percentOff: 10, appliesToTiers: ['platinum'] }, 'appliesToTiers'],
    [{ code: 'WHEN', percentOff: 10, expiresAt: 'soon' }, 'expiresAt'],
    [{ code: 'MAX', percentOff: 10, maxRedemptions: 0 }, 'maxRedemptions'],
    [{ code: 'RED', percentOff: 10, redemptions: 5 }, 'redemptions'],
  ])('answers 400 validation_failed to %j', async (body, field) => {
    const res = await put(40, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await stack.services.orm.em.fork().count(Promotion, { id: id(40) })).toBe(0);
  });

  it('answers 400 to a malformed id', async () => {
    const res = await stack.http.put('/api/promo/42').set(admin.auth).send({ code: 'X1', percentOff: 1 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('id');
  });

  it('refuses non-administrators', async () => {
    const owner = await createAccount(stack);
    for (const res of [
      await stack.http.get('/api/promo').set(owner.auth),
      await stack.http
        .put(`/api/promo/${id(50)}`)
        .set(owner.auth)
        .send({ code: 'MINE', percentOff: 100 }),
      await stack.http.delete(`/api/promo/${id(2)}`).set(owner.auth),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('platform_admin_required');
    }
  });
});
