import { tenantContext } from '../../../domain/context';
import { recomputeHealth } from '../../../domain/core/crm/healthScore';
import { registerHealthSignal } from '../../../domain/core/crm/healthSignals';
import { registerTimelineProvider } from '../../../domain/core/crm/timeline';
import { newId } from '../../../entities/base';
import { createAccount, type Account } from '../../support/factories';
import { makeCustomer, makeDeal, makePipeline } from '../../support/crm';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

// Another module's timeline source and health signal, the way invoicing registers its own (under test names).
const invoices = new Map<string, { id: string; at: Date }[]>();
const unpaid = new Map<string, number>();
registerTimelineProvider('test_invoice', async (_ctx, customerId, q) =>
  (invoices.get(customerId) ?? [])
    .filter(
      (i) =>
        (!q.from || i.at >= q.from) &&
        (i.at < q.before.at || (i.at.getTime() === q.before.at.getTime() && i.id < q.before.id)),
    )
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, q.limit)
    .map((i) => ({
      source: 'test_invoice',
      id: i.id,
      at: i.at,
      type: 'issued',
      title: 'Invoice',
      summary: null,
      data: { total: 100 },
    })),
);
registerHealthSignal({
  key: 'test_unpaid',
  label: 'Unpaid test invoices',
  weight: 25,
  compute: async (_ctx, ids) =>
    new Map(
      ids
        .filter((id) => unpaid.has(id))
        .map((id) => [
          id,
          {
            value: Math.max(0, 1 - 0.5 * unpaid.get(id)!),
            detail: `${unpaid.get(id)} unpaid`,
            facts: { unpaid: unpaid.get(id)! },
          },
        ]),
    ),
});

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe('CRM activities, timeline and health score', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack();
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const add = async (customerId: string, body: Record<string, unknown>) => {
    const res = await stack.http.post(`/api/customers/${customerId}/activities`).set(owner.auth).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string; completedAt: string | null };
  };
  const signals = async (customerId: string) => {
    const [score] = await recomputeHealth(tenantContext(stack.services, owner.tenantId), [customerId]);
    return { score: score.score, risk: score.risk, by: Object.fromEntries(score.signals.map((s) => [s.key, s.value])) };
  };

  it('adds activities with completion defaults, completes and deletes them, and lists open follow-ups', async () => {
    const c = await makeCustomer(stack, owner, { name: 'Follow' });
    const note = await add(c.id, { type: 'note', subject: 'Met at fair' });
    expect(note.completedAt).not.toBeNull();
    const task = await add(c.id, { type: 'task', subject: 'Send quote', dueAt: ago(2) });
    expect(task).toMatchObject({ completedAt: null, assigneeId: owner.user.id });
    const soon = await add(c.id, {
      type: 'call',
      subject: 'Call back',
      dueAt: new Date(Date.now() + 2 * DAY).toISOString(),
    });
    expect(soon.completedAt).toBeNull();
    const later = await add(c.id, {
      type: 'meeting',
      subject: 'Review',
      dueAt: new Date(Date.now() + 30 * DAY).toISOString(),
      assigneeId: owner.user.id,
    });
    const tasks = async (q = '') =>
      (await stack.http.get(`/api/customers/tasks?${q}`).set(owner.auth)).body.items.map((t: { id: string }) => t.id);
    expect(await tasks()).toEqual([task.id, later.id]); // the call has no assignee
    expect(await tasks('assignee=anyone')).toEqual([task.id, soon.id, later.id]);
    expect(await tasks('assignee=anyone&due=overdue')).toEqual([task.id]);
    expect(await tasks('assignee=anyone&due=soon&days=7')).toEqual([soon.id]);
    const page = await stack.http.get('/api/customers/tasks?assignee=anyone&limit=2').set(owner.auth);
    expect(page.body.items[0]).toEqual({ ...task, customerName: 'Follow', overdue: true });
    expect(
      (
        await stack.http
          .get(`/api/customers/tasks?assignee=anyone&limit=2&cursor=${page.body.nextCursor}`)
          .set(owner.auth)
      ).body.items.map((t: { id: string }) => t.id),
    ).toEqual([later.id]);
    const done = await stack.http
      .patch(`/api/customers/activities/${task.id}`)
      .set(owner.auth)
      .send({ completed: true });
    expect(done.body.completedAt).not.toBeNull();
    expect(await tasks('assignee=anyone')).toEqual([soon.id, later.id]);
    await stack.http.delete(`/api/customers/activities/${soon.id}`).set(owner.auth).expect(204);
    expect(
      (await stack.http.patch(`/api/customers/activities/${soon.id}`).set(owner.auth).send({ completed: true })).status,
    ).toBe(404);
    expect(
      (
        await stack.http.post(`/api/customers/${c.id}/activities`).set(owner.auth).send({ type: 'fax', subject: '' })
      ).body.errors
        .map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['subject', 'type']);
    expect((await stack.http.get('/api/customers/tasks?due=later').set(owner.auth)).status).toBe(400);
    // Strict ISO 8601 forms new Date() cannot read (basic, week, ordinal, signed year) are refused, not a 500.
    for (const bad of ['20240101', '2009-W53-7', '2009-123', '-2024-01-01', '2024-01-01T1010']) {
      expectFieldErrors(
        await stack.http
          .post(`/api/customers/${c.id}/activities`)
          .set(owner.auth)
          .send({ type: 'task', subject: 'Odd', occurredAt: bad, dueAt: bad }),
        'occurredAt',
        'dueAt',
      );
      expectFieldErrors(
        await stack.http
          .patch(`/api/customers/activities/${task.id}`)
          .set(owner.auth)
          .send({ occurredAt: bad, dueAt: bad }),
        'occurredAt',
        'dueAt',
      );
    }
    // A cursor holds a due date as toISOString writes it: "1" (Date.parse reads it, PostgreSQL does not) is refused.
    const forged = Buffer.from(`1|${task.id}`).toString('base64url');
    expectProblem(
      await stack.http.get(`/api/customers/tasks?assignee=anyone&cursor=${forged}`).set(owner.auth),
      400,
      'validation_failed',
    );
  });

  it('merges the timeline of every source in time order, paged', async () => {
    const c = await makeCustomer(stack, owner, { name: 'Timeline' });
    const at = ago(5);
    const made = [
      await add(c.id, { type: 'note', subject: 'n1', occurredAt: ago(10) }),
      await add(c.id, { type: 'call', subject: 'c1', occurredAt: at }),
      await add(c.id, { type: 'email', subject: 'e1', occurredAt: at }),
      await add(c.id, { type: 'meeting', subject: 'm1', occurredAt: ago(1) }),
    ];
    invoices.set(c.id, [
      { id: newId(), at: new Date(at) },
      { id: newId(), at: new Date(ago(7)) },
      { id: newId(), at: new Date(ago(0.5)) },
    ]);
    const all: { source: string; id: string; at: string }[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: typeof all; nextCursor: string | null } } = await stack.http
        .get(`/api/customers/${c.id}/timeline?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        .set(owner.auth);
      expect(res.status).toBe(200);
      all.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(all).toHaveLength(7);
    expect(new Set(all.map((i) => i.id)).size).toBe(7);
    const times = all.map((i) => Date.parse(i.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Three items share one time: activity before invoice, then ids descending.
    const tied = all.filter((i) => i.at === new Date(at).toISOString());
    expect(tied.map((i) => i.source)).toEqual(['activity', 'activity', 'test_invoice']);
    expect(tied[0].id > tied[1].id).toBe(true);
    expect(made).toHaveLength(4);
    const onlyInvoices = await stack.http
      .get(`/api/customers/${c.id}/timeline?sources=test_invoice&from=${encodeURIComponent(ago(6))}`)
      .set(owner.auth);
    expect(onlyInvoices.body.items.map((i: { source: string }) => i.source)).toEqual(['test_invoice', 'test_invoice']);
    const recent = await stack.http
      .get(`/api/customers/${c.id}/timeline?sources=activity&from=${encodeURIComponent(at)}`)
      .set(owner.auth);
    expect(recent.body.items.map((i: { title: string }) => i.title)).toEqual(['m1', 'e1', 'c1']);
    const m1 = made[3] as {
      id: string;
      occurredAt: string;
      dueAt: string | null;
      completedAt: string | null;
      assigneeId: string | null;
      source: string | null;
    };
    expect(recent.body.items[0]).toEqual({
      source: 'activity',
      id: m1.id,
      at: m1.occurredAt,
      type: 'meeting',
      title: 'm1',
      summary: null,
      data: { dueAt: m1.dueAt, completedAt: m1.completedAt, assigneeId: m1.assigneeId, source: m1.source },
    });
    expect((await stack.http.get(`/api/customers/${c.id}/timeline?cursor=bad`).set(owner.auth)).status).toBe(400);
    // A time new Date() reads but PostgreSQL does not (year -271821), and bounds in forms new Date() cannot read.
    const forged = Buffer.from(`-271821-04-20T00:00:00.000Z|activity|${m1.id}`).toString('base64url');
    expectProblem(
      await stack.http.get(`/api/customers/${c.id}/timeline?cursor=${forged}`).set(owner.auth),
      400,
      'validation_failed',
    );
    expectFieldErrors(
      await stack.http.get(`/api/customers/${c.id}/timeline?from=20240101&to=2009-W53-7`).set(owner.auth),
      'from',
      'to',
    );
  });

  it('scores health from its signals, each moving the score the documented way', async () => {
    const c = await makeCustomer(stack, owner, { name: 'Scored' });
    // Never contacted, nothing else: only recency (0) and overdue tasks (1) apply, trend 0 → (0·30 + 1·20 + 0·10) / 60.
    let s = await signals(c.id);
    expect(s.by).toEqual({ recency: 0, overdue_tasks: 1, activity_trend: 0 });
    expect(s.score).toBe(33);
    expect(s.risk).toBe('high');
    // A call 3 days ago: recency 1, trend 1 (activity now, none before) → 100.
    await add(c.id, { type: 'call', subject: 'Hello', occurredAt: ago(3) });
    s = await signals(c.id);
    expect(s.by).toMatchObject({ recency: 1, activity_trend: 1 });
    expect(s.score).toBe(100);
    expect(s.risk).toBe('low');
    // Two overdue tasks: overdue 0.5; trend stays 1 (3 activities recent, 0 before).
    await add(c.id, { type: 'task', subject: 't1', dueAt: ago(2), occurredAt: ago(2) });
    await add(c.id, { type: 'task', subject: 't2', dueAt: ago(1), occurredAt: ago(1) });
    s = await signals(c.id);
    expect(s.by.overdue_tasks).toBe(0.5);
    expect(s.score).toBe(Math.round((100 * (30 + 10 + 10)) / 60));
    // An open deal not moved for 40 days: momentum 0 pulls the score down; moving it brings it to 1.
    const p = await makePipeline(stack, owner);
    const deal = await makeDeal(stack, owner, { customerId: c.id, stageId: p.stages[0].id });
    await stack.services.orm.em
      .fork()
      .execute(`update crm_deals set stage_changed_at = now() - interval '40 days' where id = '${deal.id}'`);
    const before = (await signals(c.id)).score;
    expect((await signals(c.id)).by.deal_momentum).toBe(0);
    await stack.http.post(`/api/deals/${deal.id}/move`).set(owner.auth).send({ stageId: p.stages[1].id }).expect(200);
    const after = await signals(c.id);
    expect(after.by.deal_momentum).toBe(1);
    expect(after.score).toBeGreaterThan(before);
    // Another module's signal (unpaid invoices) weighs in once registered.
    unpaid.set(c.id, 2);
    const withInvoices = await signals(c.id);
    expect(withInvoices.by.test_unpaid).toBe(0);
    expect(withInvoices.score).toBeLessThan(after.score);
    unpaid.delete(c.id);
    // Activity trend fading: activities only 31-60 days ago.
    const fading = await makeCustomer(stack, owner, { name: 'Fading' });
    await add(fading.id, { type: 'note', subject: 'old', occurredAt: ago(45) });
    expect((await signals(fading.id)).by.activity_trend).toBe(0);
    // Recency falls linearly from 14 to 90 days.
    const old = await makeCustomer(stack, owner, { name: 'Old' });
    await add(old.id, { type: 'email', subject: 'mail', occurredAt: ago(52) });
    expect((await signals(old.id)).by.recency).toBe(0.5);
  });

  it('keeps a stored score the worker recomputes after changes, explained by its signals', async () => {
    const c = await makeCustomer(stack, owner, { name: 'Stored' });
    const first = await stack.http.get(`/api/customers/${c.id}/score`).set(owner.auth);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ customerId: c.id, score: 33, risk: 'high' });
    expect(first.body.signals.find((s: { key: string }) => s.key === 'recency')).toMatchObject({
      weight: 30,
      value: 0,
      detail: 'never contacted',
      facts: { daysSinceLastContact: null },
    });
    await add(c.id, { type: 'meeting', subject: 'Kick-off', occurredAt: ago(1) });
    await eventually(
      async () => (await stack.http.get(`/api/customers/${c.id}/score`).set(owner.auth)).body.score === 100,
      { what: 'the recomputed score' },
    );
    expect((await stack.http.get(`/api/customers/${c.id}`).set(owner.auth)).body.lastContactAt).not.toBeNull();
  });
});
