import { createAccount, type Account } from '../../support/factories';
import { makeCustomer, makeDeal, makePipeline } from '../../support/crm';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

describe('CRM pipelines and deals', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  it('creates pipelines with ordered stages and edits them', async () => {
    const p = await makePipeline(stack, owner);
    expect(p.stages.map((s) => s.probability)).toEqual([10, 50, 90]);
    const [lead, proposal, negotiation] = p.stages;
    const res = await stack.http
      .patch(`/api/pipelines/${p.id}`)
      .set(owner.auth)
      .send({
        name: 'New business',
        stages: [
          { id: proposal.id, name: 'Offer', probability: 60 },
          { id: lead.id, name: 'Lead', probability: 5 },
          { name: 'Contract', probability: 95 },
        ],
      });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('New business');
    expect(res.body.stages.map((s: { name: string; position: number }) => [s.name, s.position])).toEqual([
      ['Offer', 0],
      ['Lead', 1],
      ['Contract', 2],
    ]);
    expect(res.body.stages.map((s: { id: string }) => s.id)).not.toContain(negotiation.id);
    expect(
      (await stack.http.get('/api/pipelines').set(owner.auth)).body.items.map((x: { id: string }) => x.id),
    ).toContain(p.id);
    // A stage of another pipeline, or listed twice, is refused.
    const other = await makePipeline(stack, owner, 'Other');
    expect(
      (
        await stack.http
          .patch(`/api/pipelines/${p.id}`)
          .set(owner.auth)
          .send({ stages: [{ id: other.stages[0].id, name: 'X', probability: 1 }] })
      ).body.errors[0].field,
    ).toBe('stages[0].id');
    expect((await stack.http.post('/api/pipelines').set(owner.auth).send({ name: 'X', stages: [] })).status).toBe(400);
    expect(
      (
        await stack.http
          .post('/api/pipelines')
          .set(owner.auth)
          .send({ name: 'X', stages: [{ name: 'A', probability: 101 }] })
      ).status,
    ).toBe(400);
  });

  it('moves, wins, loses and reopens deals by the state rules, keeping the history', async () => {
    const p = await makePipeline(stack, owner);
    const other = await makePipeline(stack, owner, 'Other');
    const customer = await makeCustomer(stack, owner);
    const deal = await makeDeal(stack, owner, {
      customerId: customer.id,
      stageId: p.stages[0].id,
      expectedCloseDate: '2026-12-31',
    });
    expect(deal).toMatchObject({
      status: 'open',
      pipelineId: p.id,
      stageId: p.stages[0].id,
      ownerId: owner.user.id,
      expectedCloseDate: '2026-12-31',
      closedAt: null,
    });
    const move = (stageId: string) => stack.http.post(`/api/deals/${deal.id}/move`).set(owner.auth).send({ stageId });
    expect((await move(p.stages[1].id)).body.stageId).toBe(p.stages[1].id);
    expect((await move(p.stages[1].id)).status).toBe(200); // the same stage: nothing changes
    expect((await move(other.stages[0].id)).body.errors[0].field).toBe('stageId');
    const won = await stack.http.post(`/api/deals/${deal.id}/win`).set(owner.auth);
    expect(won.body).toMatchObject({ status: 'won', lostReason: null });
    expect(won.body.closedAt).not.toBeNull();
    // Refused moves: a closed deal neither moves, wins nor loses; an open one does not reopen.
    expectProblem(await move(p.stages[2].id), 409, 'invalid_transition');
    expectProblem(await stack.http.post(`/api/deals/${deal.id}/win`).set(owner.auth), 409, 'invalid_transition');
    expectProblem(
      await stack.http.post(`/api/deals/${deal.id}/lose`).set(owner.auth).send({ reason: 'x' }),
      409,
      'invalid_transition',
    );
    expect((await stack.http.post(`/api/deals/${deal.id}/reopen`).set(owner.auth)).body).toMatchObject({
      status: 'open',
      closedAt: null,
      stageId: p.stages[1].id,
    });
    expectProblem(await stack.http.post(`/api/deals/${deal.id}/reopen`).set(owner.auth), 409, 'invalid_transition');
    expect((await stack.http.post(`/api/deals/${deal.id}/lose`).set(owner.auth).send({})).status).toBe(400);
    const lost = await stack.http.post(`/api/deals/${deal.id}/lose`).set(owner.auth).send({ reason: 'Too expensive' });
    expect(lost.body).toMatchObject({ status: 'lost', lostReason: 'Too expensive' });
    const detail = await stack.http.get(`/api/deals/${deal.id}`).set(owner.auth).expect(200);
    // The detail (a lean read) presents the deal as the write's answer did.
    expect({ ...detail.body, history: undefined }).toEqual({ ...lost.body, history: undefined });
    expect(detail.body.history.map((e: { type: string }) => e.type)).toEqual([
      'created',
      'moved',
      'won',
      'reopened',
      'lost',
    ]);
    expect(detail.body.history[1]).toMatchObject({
      fromStageId: p.stages[0].id,
      toStageId: p.stages[1].id,
      actorId: owner.user.id,
    });
    expect(detail.body.history[4].reason).toBe('Too expensive');
    // The history is append-only in the database itself.
    await expect(
      stack.services.orm.em.fork().execute(`update crm_deal_events set reason = 'x' where deal_id = '${deal.id}'`),
    ).rejects.toThrow(/append-only/);
    // A stage outside the deal's pipeline is refused by the database too.
    await expect(
      stack.services.orm.em
        .fork()
        .execute(`update crm_deals set stage_id = '${other.stages[0].id}' where id = '${deal.id}'`),
    ).rejects.toThrow(/not a stage of pipeline/);
  });

  it('sums the weighted forecast per stage and in total, per currency', async () => {
    const p = await makePipeline(stack, owner);
    const c = await makeCustomer(stack, owner);
    const [s10, s50, s90] = p.stages.map((s) => s.id);
    const first = await makeDeal(stack, owner, { customerId: c.id, stageId: s10, amount: 100_001 });
    const second = await makeDeal(stack, owner, { customerId: c.id, stageId: s10, amount: 50_000 });
    await makeDeal(stack, owner, { customerId: c.id, stageId: s50, amount: 20_000, currency: 'USD' });
    await makeDeal(stack, owner, { customerId: c.id, stageId: s90, amount: 10_000 });
    const closed = await makeDeal(stack, owner, { customerId: c.id, stageId: s90, amount: 999_999 });
    await stack.http.post(`/api/deals/${closed.id}/win`).set(owner.auth).expect(200);
    const board = await stack.http.get(`/api/pipelines/${p.id}/board`).set(owner.auth);
    expect(board.status).toBe(200);
    const [lead, proposal, negotiation] = board.body.stages;
    expect(lead.totals).toEqual([{ currency: 'EUR', amount: 150_001, weighted: 15_000, count: 2 }]);
    expect(lead.deals).toHaveLength(2);
    // The board's deals (a lean read) are presented as the writes answered them.
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...lead.deals].sort(byId)).toEqual([first, second].sort(byId));
    expect(proposal.totals).toEqual([{ currency: 'USD', amount: 20_000, weighted: 10_000, count: 1 }]);
    expect(negotiation.totals).toEqual([{ currency: 'EUR', amount: 10_000, weighted: 9_000, count: 1 }]);
    expect(negotiation.count).toBe(1);
    expect(board.body.totals).toEqual([
      { currency: 'EUR', amount: 160_001, weighted: 24_000, count: 3 },
      { currency: 'USD', amount: 20_000, weighted: 10_000, count: 1 },
    ]);
    expect(
      (await stack.http.get(`/api/pipelines/${p.id}/board?perStage=1`).set(owner.auth)).body.stages[0].deals,
    ).toHaveLength(1);
    // Stages and pipelines holding deals are not removed.
    expectProblem(
      await stack.http
        .patch(`/api/pipelines/${p.id}`)
        .set(owner.auth)
        .send({ stages: [{ id: s50, name: 'Only', probability: 50 }] }),
      409,
      'stage_has_deals',
    );
    expectProblem(await stack.http.delete(`/api/pipelines/${p.id}`).set(owner.auth), 409, 'pipeline_has_deals');
    expectProblem(await stack.http.delete(`/api/customers/${c.id}`).set(owner.auth), 409, 'customer_in_use');
  });

  it('filters deals by customer, stage, owner and status', async () => {
    const p = await makePipeline(stack, owner);
    const a = await makeCustomer(stack, owner, { name: 'A' });
    const b = await makeCustomer(stack, owner, { name: 'B' });
    const d1 = await makeDeal(stack, owner, { customerId: a.id, stageId: p.stages[0].id });
    const d2 = await makeDeal(stack, owner, { customerId: a.id, stageId: p.stages[1].id });
    const d3 = await makeDeal(stack, owner, { customerId: b.id, stageId: p.stages[1].id, ownerId: null });
    await stack.http.post(`/api/deals/${d2.id}/win`).set(owner.auth).expect(200);
    const ids = async (q: string) =>
      (await stack.http.get(`/api/deals?${q}`).set(owner.auth)).body.items.map((d: { id: string }) => d.id);
    expect(await ids(`customerId=${a.id}`)).toEqual([d1.id, d2.id]);
    expect(await ids(`stageId=${p.stages[1].id}`)).toEqual([d2.id, d3.id]);
    expect(await ids(`pipelineId=${p.id}&status=open`)).toEqual([d1.id, d3.id]);
    expect(await ids(`pipelineId=${p.id}&ownerId=${owner.user.id}`)).toEqual([d1.id, d2.id]);
    const patched = await stack.http
      .patch(`/api/deals/${d3.id}`)
      .set(owner.auth)
      .send({ title: 'Renamed', amount: 5, customerId: a.id, expectedCloseDate: null });
    expect(patched.body).toMatchObject({ title: 'Renamed', amount: 5, customerId: a.id });
    expect(
      (await stack.http.patch(`/api/deals/${d3.id}`).set(owner.auth).send({ stageId: p.stages[0].id })).status,
    ).toBe(400);
    await stack.http.delete(`/api/deals/${d3.id}`).set(owner.auth).expect(204);
    expect((await stack.http.get(`/api/deals/${d3.id}`).set(owner.auth)).status).toBe(404);
  });

  it('refuses bad deal input', async () => {
    const p = await makePipeline(stack, owner);
    const c = await makeCustomer(stack, owner);
    const res = await stack.http.post('/api/deals').set(owner.auth).send({
      title: '',
      customerId: 'x',
      stageId: p.stages[0].id,
      amount: -1,
      currency: 'eur',
      expectedCloseDate: '2026-13-01',
    });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['title', 'customerId', 'amount', 'currency', 'expectedCloseDate']),
    );
    const stranger = await createAccount(stack);
    const theirs = await makePipeline(stack, stranger);
    expect(
      (
        await stack.http
          .post('/api/deals')
          .set(owner.auth)
          .send({ title: 'X', customerId: c.id, stageId: theirs.stages[0].id, amount: 1, currency: 'EUR' })
      ).body.errors[0].field,
    ).toBe('stageId');
    const theirCustomer = await makeCustomer(stack, stranger);
    expect(
      (
        await stack.http
          .post('/api/deals')
          .set(owner.auth)
          .send({ title: 'X', customerId: theirCustomer.id, stageId: p.stages[0].id, amount: 1, currency: 'EUR' })
      ).body.errors[0].field,
    ).toBe('customerId');
    expect((await stack.http.get('/api/deals?status=maybe').set(owner.auth)).status).toBe(400);
  });
});
