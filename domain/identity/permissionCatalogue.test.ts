import { allPermissions, defaultRoles, isPermission, permissionCatalogue } from './permissionCatalogue';
import { effectivePermissions } from './permissions';

describe('the permission catalogue', () => {
  it('lists every key once, dotted lower-case words, each with what it allows', () => {
    expect(new Set(allPermissions).size).toBe(allPermissions.length);
    for (const group of Object.values(permissionCatalogue)) {
      for (const [key, allows] of Object.entries(group)) {
        expect(key).toMatch(/^[a-z]+(\.[a-z]+)+$/);
        expect(allows.length).toBeGreaterThan(0);
      }
    }
  });

  it('tells catalogue keys from anything else', () => {
    expect(isPermission('org.manage')).toBe(true);
    expect(isPermission('work.integrations.manage')).toBe(true);
    expect(isPermission('org.manage ')).toBe(false);
    expect(isPermission('ORG.MANAGE')).toBe(false);
    expect(isPermission('')).toBe(false);
  });
});

describe('the default roles', () => {
  const byKey = (key: string) => defaultRoles.find((r) => r.key === key)!;

  it('are owner, admin and member, in that order', () => {
    expect(defaultRoles.map((r) => r.key)).toEqual(['owner', 'admin', 'member']);
  });

  it('give owner and admin every permission', () => {
    expect(byKey('owner').permissions).toEqual(allPermissions);
    expect(byKey('admin').permissions).toEqual(allPermissions);
  });

  it("give a member the modules' reads and uses, but not the organisation's members, billing or management", () => {
    const member = new Set(byKey('member').permissions);
    for (const key of [
      'work.read',
      'cloud.read',
      'chat.read',
      'vr.play',
      'knowledge.write',
      'core.customers.write',
      'cloud.write',
      'hr.clock',
      'work.write',
    ])
      expect(member.has(key as never)).toBe(true);
    for (const key of [
      'org.members.read',
      'billing.read',
      'org.manage',
      'rbac.manage',
      'billing.manage',
      'core.invoices.issue',
      'knowledge.keys.manage',
    ])
      expect(member.has(key as never)).toBe(false);
    expect([...member].every(isPermission)).toBe(true);
  });
});

describe('effectivePermissions', () => {
  it('is the union of the roles held, and empty for none', () => {
    expect(
      effectivePermissions([{ permissions: ['work.read', 'chat.read'] }, { permissions: ['work.read', 'work.write'] }]),
    ).toEqual(new Set(['work.read', 'chat.read', 'work.write']));
    expect(effectivePermissions([]).size).toBe(0);
  });
});
