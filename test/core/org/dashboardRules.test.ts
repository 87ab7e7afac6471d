import { addMember, createAccount, type Account } from '../../support/factories';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

interface Dash {
  id: string;
  name: string;
  isDefault: boolean;
  widgets: {
    id: string;
    type: string;
    x: number;
    y: number;
    w: number;
    h: number;
    available: boolean;
    unavailableReason: string | null;
  }[];
}

describe('core: the default dashboard and widgets of modules not in use', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  afterAll(() => stack.close());

  const create = async (who: Account, name: string, isDefault = false) =>
    (await stack.http.post('/api/dashboards').set(who.auth).send({ name, isDefault }).expect(201)).body as Dash;
  const list = async (who: Account) =>
    (await stack.http.get('/api/dashboards').set(who.auth).expect(200)).body.items as Dash[];
  const defaults = async (who: Account) => (await list(who)).filter((d) => d.isDefault).map((d) => d.name);

  it('refuses to un-default the default dashboard: another one must be made the default', async () => {
    const member = await addMember(stack, owner, 'member');
    const only = await create(member, 'Only');
    expectProblem(
      await stack.http.patch(`/api/dashboards/${only.id}`).set(member.auth).send({ isDefault: false }),
      409,
      'default_dashboard_required',
    );
    const other = await create(member, 'Other');
    // Refused as a whole: the rename in the same request is not applied either.
    expectProblem(
      await stack.http.patch(`/api/dashboards/${only.id}`).set(member.auth).send({ name: 'Renamed', isDefault: false }),
      409,
      'default_dashboard_required',
    );
    expect(await defaults(member)).toEqual(['Only']);
    // isDefault false on a dashboard that is not the default changes nothing; making another the default moves it.
    expect(
      (await stack.http.patch(`/api/dashboards/${other.id}`).set(member.auth).send({ isDefault: false })).body,
    ).toMatchObject({ isDefault: false });
    expect(
      (await stack.http.patch(`/api/dashboards/${other.id}`).set(member.auth).send({ isDefault: true })).body,
    ).toMatchObject({ isDefault: true });
    expect(await defaults(member)).toEqual(['Other']);
  });

  it('makes the first remaining dashboard the default when the default is deleted', async () => {
    const member = await addMember(stack, owner, 'member');
    const a = await create(member, 'A');
    await create(member, 'B');
    await create(member, 'C');
    const d = await create(member, 'D', true);
    expect((await stack.http.delete(`/api/dashboards/${d.id}`).set(member.auth)).status).toBe(204);
    // The list keeps its order: the oldest remaining, listed first, is now the default.
    expect((await list(member)).map((x) => [x.name, x.isDefault])).toEqual([
      ['A', true],
      ['B', false],
      ['C', false],
    ]);
    expect((await stack.http.delete(`/api/dashboards/${a.id}`).set(member.auth)).status).toBe(204);
    expect(await defaults(member)).toEqual(['B']);
    // Deleting a dashboard that is not the default leaves the default where it is.
    const c = (await list(member)).find((x) => x.name === 'C')!;
    expect((await stack.http.delete(`/api/dashboards/${c.id}`).set(member.auth)).status).toBe(204);
    expect(await defaults(member)).toEqual(['B']);
    // The last one deleted: no dashboard, no default; the next one created is the default again.
    const b = (await list(member))[0];
    expect((await stack.http.delete(`/api/dashboards/${b.id}`).set(member.auth)).status).toBe(204);
    expect(await list(member)).toEqual([]);
    expect((await create(member, 'New')).isDefault).toBe(true);
  });

  it('keeps exactly one default under concurrent deletes and default changes', async () => {
    const member = await addMember(stack, owner, 'member');
    for (let round = 0; round < 3; round++) {
      const made: Dash[] = [];
      for (let i = 0; i < 6; i++) made.push(await create(member, `R${round}-${i}`, i === 0));
      const current = (await list(member)).find((d) => d.isDefault)!;
      const others = made.filter((d) => d.id !== current.id);
      const answers = await Promise.all([
        stack.http.delete(`/api/dashboards/${current.id}`).set(member.auth),
        stack.http.delete(`/api/dashboards/${others[0].id}`).set(member.auth),
        stack.http.patch(`/api/dashboards/${others[1].id}`).set(member.auth).send({ isDefault: true }),
        stack.http.delete(`/api/dashboards/${others[1].id}`).set(member.auth),
        stack.http.patch(`/api/dashboards/${others[2].id}`).set(member.auth).send({ isDefault: false }),
        stack.http.delete(`/api/dashboards/${others[3].id}`).set(member.auth),
      ]);
      // Each answer is one the route declares; whatever the order, the member keeps exactly one default.
      for (const a of answers) expect([200, 204, 404, 409]).toContain(a.status);
      const left = await list(member);
      expect(left.length).toBeGreaterThan(0);
      expect(left.filter((d) => d.isDefault)).toHaveLength(1);
      expect(left[0].isDefault).toBe(true);
      for (const d of left) await stack.http.delete(`/api/dashboards/${d.id}`).set(member.auth).expect(204);
    }
  });

  it('flags widgets of a module switched off as unavailable, and brings them back in place when it is on again', async () => {
    const { id: businessId } = (await stack.http.get('/api/businesses').set(owner.auth)).body;
    const setModules = (modules: string[]) =>
      stack.http.patch(`/api/businesses/${businessId}/modules`).set(owner.auth).send({ modules }).expect(200);
    const dash = await create(owner, 'Training');
    const add = async (body: object) =>
      (await stack.http.post(`/api/dashboards/${dash.id}/widgets`).set(owner.auth).send(body).expect(201)).body as Dash;
    await add({ type: 'appointments_today', x: 0, y: 0 });
    await add({ type: 'vr_sessions_week', x: 4, y: 0, w: 5, h: 3 });
    const placed = (await add({ type: 'storage', x: 0, y: 3 })).widgets;
    expect(placed.every((w) => w.available && w.unavailableReason === null)).toBe(true);
    const vr = placed.find((w) => w.type === 'vr_sessions_week')!;

    await setModules(['core', 'knowledge', 'cloud']);
    const off = (await stack.http.get(`/api/dashboards/${dash.id}`).set(owner.auth).expect(200)).body as Dash;
    // Still there, in its place, flagged: the app shows a placeholder instead of calling its data route.
    expect(off.widgets).toHaveLength(3);
    expect(off.widgets.find((w) => w.id === vr.id)).toMatchObject({
      x: 4,
      y: 0,
      w: 5,
      h: 3,
      available: false,
      unavailableReason: 'module_not_in_use',
    });
    expect(off.widgets.filter((w) => w.available).map((w) => w.type)).toEqual(['appointments_today', 'storage']);
    expect((await list(owner)).find((d) => d.id === dash.id)!.widgets.find((w) => w.id === vr.id)).toMatchObject({
      available: false,
    });
    // Adding or re-configuring such a widget is refused; moving or removing it is allowed.
    expectProblem(
      await stack.http.post(`/api/dashboards/${dash.id}/widgets`).set(owner.auth).send({ type: 'vr_overview' }),
      403,
      'widget_not_available',
    );
    expectProblem(
      await stack.http.patch(`/api/dashboards/${dash.id}/widgets/${vr.id}`).set(owner.auth).send({ settings: {} }),
      403,
      'widget_not_available',
    );
    const moved = await stack.http
      .put(`/api/dashboards/${dash.id}/layout`)
      .set(owner.auth)
      .send({ widgets: [{ id: vr.id, x: 6, y: 0, w: 6, h: 3 }] });
    expect(moved.status).toBe(200);
    expect(moved.body.widgets.find((w: { id: string }) => w.id === vr.id)).toMatchObject({
      x: 6,
      w: 6,
      available: false,
    });

    await setModules(['core', 'knowledge', 'cloud', 'vr']);
    const on = (await stack.http.get(`/api/dashboards/${dash.id}`).set(owner.auth).expect(200)).body as Dash;
    expect(on.widgets.find((w) => w.id === vr.id)).toMatchObject({
      x: 6,
      y: 0,
      w: 6,
      h: 3,
      available: true,
      unavailableReason: null,
    });
    expect(on.widgets.every((w) => w.available)).toBe(true);
  });

  it('flags a widget whose permission the member lost, per member', async () => {
    const role = (
      await stack.http
        .post('/rbac/roles')
        .set(owner.auth)
        .send({ key: 'coach', name: 'Coach', permissions: ['vr.reports.read'] })
        .expect(201)
    ).body as { id: string };
    const coach = await addMember(stack, owner, 'coach');
    const mine = await create(coach, 'Coaching');
    const added = (
      await stack.http
        .post(`/api/dashboards/${mine.id}/widgets`)
        .set(coach.auth)
        .send({ type: 'vr_overview' })
        .expect(201)
    ).body as Dash;
    expect(added.widgets[0]).toMatchObject({ available: true, unavailableReason: null });
    await stack.http.put(`/rbac/roles/${role.id}/permissions`).set(owner.auth).send({ permissions: [] }).expect(200);
    const after = (await stack.http.get(`/api/dashboards/${mine.id}`).set(coach.auth).expect(200)).body as Dash;
    expect(after.widgets[0]).toMatchObject({
      type: 'vr_overview',
      available: false,
      unavailableReason: 'permission_missing',
    });
    // A type that left the catalogue (a row stored by an older version) is flagged too, never a 500.
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`update core_dashboard_widgets set type = 'retired_type' where id = ?`, [after.widgets[0].id]);
    expect(
      (await stack.http.get(`/api/dashboards/${mine.id}`).set(coach.auth).expect(200)).body.widgets[0],
    ).toMatchObject({ type: 'retired_type', available: false, unavailableReason: 'type_unknown' });
  });
});
