import { makeCustomer, makeDeal, makePipeline } from '../../support/crm';
import { addMember, createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

/**
 * Saved views of the customer and deal lists: personal and shared, who edits which, and applying one (?view=)
 * giving what the same filters and sort give explicitly.
 */
describe('CRM saved views', () => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  let other: Account;
  let stranger: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    member = await addMember(stack, owner, 'member');
    other = await addMember(stack, owner, 'member');
    stranger = await createAccount(stack);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(owner.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
    const people = [
      { name: 'Vip Alpha', tags: ['vip'], custom: { seats: 3 } },
      { name: 'Vip Beta', tags: ['vip'], custom: { seats: 3 } },
      { name: 'Vip Gamma', tags: ['vip'], custom: { seats: 5 } },
      { name: 'Plain Delta', tags: ['plain'], custom: { seats: 3 } },
      { name: 'Vip Org', kind: 'organisation', tags: ['vip'], custom: { seats: 3 } },
    ];
    for (const p of people) await makeCustomer(stack, owner, p);
  });
  afterAll(() => stack.close());

  const list = (account: Account, query: Record<string, string | string[]>) =>
    stack.http.get('/api/customers').set(account.auth).query(query);

  it('applies a view with the same result as its filters and sort given explicitly, page by page', async () => {
    const filters = { kind: 'person', tag: 'vip', custom: ['seats:3'] };
    const made = await stack.http
      .post('/api/customers/views')
      .set(member.auth)
      .send({ name: 'My VIPs', filters, sort: '-name', columns: ['name', 'tags', 'custom.seats'] })
      .expect(201);
    expect(made.body).toMatchObject({
      resource: 'customers',
      name: 'My VIPs',
      shared: false,
      ownerId: member.user.id,
      filters,
      sort: '-name',
      columns: ['name', 'tags', 'custom.seats'],
    });
    expect(made.headers.location).toBe(`/api/customers/views/${made.body.id}`);
    const explicit = await list(member, { ...filters, sort: '-name', limit: '1' }).expect(200);
    const viewed = await list(member, { view: made.body.id, limit: '1' }).expect(200);
    expect(viewed.body).toEqual(explicit.body);
    expect(viewed.body.items.map((c: { name: string }) => c.name)).toEqual(['Vip Beta']);
    const next = await list(member, { view: made.body.id, limit: '1', cursor: viewed.body.nextCursor }).expect(200);
    const nextExplicit = await list(member, {
      ...filters,
      sort: '-name',
      limit: '1',
      cursor: explicit.body.nextCursor,
    }).expect(200);
    expect(next.body).toEqual(nextExplicit.body);
    expect(next.body.items.map((c: { name: string }) => c.name)).toEqual(['Vip Alpha']);
    // A filter of the request replaces the view's.
    const replaced = await list(member, { view: made.body.id, custom: 'seats:5' }).expect(200);
    expect(replaced.body.items.map((c: { name: string }) => c.name)).toEqual(['Vip Gamma']);
  });

  it('keeps a personal view to its owner; shared views are edited by administrators only', async () => {
    const mine = await stack.http
      .post('/api/customers/views')
      .set(member.auth)
      .send({ name: 'Private', filters: { tag: 'plain' } })
      .expect(201);
    const id = mine.body.id as string;
    // Another member, and the owner of the organisation, do not see it.
    for (const who of [other, owner]) {
      await stack.http.get(`/api/customers/views/${id}`).set(who.auth).expect(404);
      await stack.http.patch(`/api/customers/views/${id}`).set(who.auth).send({ name: 'Taken' }).expect(404);
      await stack.http.delete(`/api/customers/views/${id}`).set(who.auth).expect(404);
      await list(who, { view: id }).expect(404);
      const seen = await stack.http.get('/api/customers/views').set(who.auth).expect(200);
      expect(seen.body.items.map((v: { id: string }) => v.id)).not.toContain(id);
    }
    const renamed = await stack.http
      .patch(`/api/customers/views/${id}`)
      .set(member.auth)
      .send({ name: 'Plain ones', sort: null, columns: ['name'] })
      .expect(200);
    expect(renamed.body).toMatchObject({
      name: 'Plain ones',
      sort: null,
      columns: ['name'],
      filters: { tag: 'plain' },
    });

    // A member may not share a view; an administrator may, and edits it; members see it and may not edit it.
    await stack.http.post('/api/customers/views').set(member.auth).send({ name: 'Team', shared: true }).expect(403);
    const team = await stack.http
      .post('/api/customers/views')
      .set(owner.auth)
      .send({ name: 'Team', shared: true, filters: { kind: 'organisation' } })
      .expect(201);
    expect(team.body).toMatchObject({ shared: true, ownerId: null });
    const seen = await stack.http.get('/api/customers/views').set(other.auth).expect(200);
    expect(seen.body.items.map((v: { name: string }) => v.name)).toEqual(['Team']);
    const orgs = await list(other, { view: team.body.id }).expect(200);
    expect(orgs.body.items.map((c: { name: string }) => c.name)).toEqual(['Vip Org']);
    const refused = await stack.http
      .patch(`/api/customers/views/${team.body.id}`)
      .set(other.auth)
      .send({ name: 'Mine now' })
      .expect(403);
    expect(refused.body.code).toBe('permission_denied');
    await stack.http.delete(`/api/customers/views/${team.body.id}`).set(other.auth).expect(403);
    await stack.http
      .patch(`/api/customers/views/${team.body.id}`)
      .set(owner.auth)
      .send({ name: 'Team accounts' })
      .expect(200);
    // One name per owner (the shared ones counting as one), case-insensitive.
    const taken = await stack.http
      .post('/api/customers/views')
      .set(owner.auth)
      .send({ name: 'team ACCOUNTS', shared: true })
      .expect(409);
    expect(taken.body.code).toBe('view_name_taken');
    await stack.http.post('/api/customers/views').set(owner.auth).send({ name: 'Team accounts' }).expect(201);
    await stack.http.delete(`/api/customers/views/${team.body.id}`).set(owner.auth).expect(204);
    await stack.http.get(`/api/customers/views/${team.body.id}`).set(owner.auth).expect(404);
  });

  it('refuses bad views with 400 and answers 404 to another organisation', async () => {
    const bad = [
      { name: '' },
      { name: 'x', columns: ['nope'] },
      { name: 'x', columns: ['custom.unknown'] },
      { name: 'x', columns: ['name', 'name'] },
      { name: 'x', filters: { custom: ['unknown:1'] } },
      { name: 'x', filters: { kind: 'robot' } },
      { name: 'x', filters: { stageId: 'not-here' } },
      { name: 'x', sort: 'price' },
      { name: 'x', shared: 'yes' },
    ];
    for (const body of bad) {
      const res = await stack.http.post('/api/customers/views').set(owner.auth).send(body);
      expect([res.status, res.body.code, JSON.stringify(body)]).toEqual([
        400,
        'validation_failed',
        JSON.stringify(body),
      ]);
    }
    await list(owner, { view: 'not-a-uuid' }).expect(400);
    const view = await stack.http.post('/api/customers/views').set(owner.auth).send({ name: 'Ours' }).expect(201);
    await stack.http.get(`/api/customers/views/${view.body.id}`).set(stranger.auth).expect(404);
    await stack.http.patch(`/api/customers/views/${view.body.id}`).set(stranger.auth).send({ name: 'x' }).expect(404);
    await stack.http.delete(`/api/customers/views/${view.body.id}`).set(stranger.auth).expect(404);
    await list(stranger, { view: view.body.id }).expect(404);
    // A customers view is not a deals view.
    await stack.http.get(`/api/deals/views/${view.body.id}`).set(owner.auth).expect(404);
    await stack.http.get('/api/deals').set(owner.auth).query({ view: view.body.id }).expect(404);
  });

  it('saves deal views and applies them like the explicit filters', async () => {
    const pipeline = await makePipeline(stack, owner, 'Views');
    const customer = await makeCustomer(stack, owner, { name: 'Deal holder' });
    for (const [i, stage] of [0, 1, 1, 2].entries())
      await makeDeal(stack, owner, { title: `D${i}`, customerId: customer.id, stageId: pipeline.stages[stage].id });
    const filters = { pipelineId: pipeline.id, stageId: pipeline.stages[1].id, status: 'open' };
    const view = await stack.http
      .post('/api/deals/views')
      .set(member.auth)
      .send({ name: 'Proposals', filters, sort: 'createdAt', columns: ['title', 'amount', 'stageId'] })
      .expect(201);
    expect(view.body).toMatchObject({ resource: 'deals', filters, columns: ['title', 'amount', 'stageId'] });
    const explicit = await stack.http.get('/api/deals').set(member.auth).query(filters).expect(200);
    const viewed = await stack.http.get('/api/deals').set(member.auth).query({ view: view.body.id }).expect(200);
    expect(viewed.body).toEqual(explicit.body);
    expect(viewed.body.items.map((d: { title: string }) => d.title)).toEqual(['D1', 'D2']);
    await stack.http
      .post('/api/deals/views')
      .set(member.auth)
      .send({ name: 'Bad', columns: ['custom.seats'] })
      .expect(400);
    await stack.http
      .post('/api/deals/views')
      .set(member.auth)
      .send({ name: 'Bad', filters: { tag: 'vip' } })
      .expect(400);
    const listed = await stack.http.get('/api/deals/views').set(member.auth).expect(200);
    expect(listed.body.items.map((v: { name: string }) => v.name)).toEqual(['Proposals']);
  });
});
