import { AppError } from '../../lib/errors';
import { requireHeld, requireRoleChangeHeld, requireRolesHeld, type Grantor } from './grants';

const grantor = (permissions: string[], roleIds: string[] = [], owner = false): Grantor => ({
  owner,
  permissions: new Set(permissions),
  roleIds: new Set(roleIds),
});
const role = (id: string, key: string, permissions: string[]) => ({ id, key, permissions });

/** The AppError `fn` throws (fails when it throws none). */
function refusal(fn: () => void): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('requireHeld', () => {
  it('passes when every permission wanted is held, and for nothing wanted', () => {
    expect(() => requireHeld(grantor(['work.read', 'work.write']), ['work.read', 'work.read'], 'Doing')).not.toThrow();
    expect(() => requireHeld(grantor([]), [], 'Doing')).not.toThrow();
  });

  it('names the missing permissions once each, in catalogue order', () => {
    const err = refusal(() =>
      requireHeld(
        grantor(['work.read']),
        ['work.write', 'org.manage', 'work.write', 'billing.read'],
        'Creating the role x',
      ),
    );
    expect(err).toMatchObject({ status: 403, code: 'permission_escalation' });
    expect(err.message).toBe(
      'Creating the role x needs permissions you do not hold: org.manage, billing.read, work.write',
    );
  });

  it('puts keys outside the catalogue last, alphabetically', () => {
    expect(refusal(() => requireHeld(grantor([]), ['zz.custom', 'aa.custom', 'org.manage'], 'X')).message).toBe(
      'X needs permissions you do not hold: org.manage, aa.custom, zz.custom',
    );
  });

  it('lets an owner grant anything', () => {
    expect(() => requireHeld(grantor([], [], true), ['org.manage', 'rbac.manage'], 'Doing')).not.toThrow();
  });
});

describe('requireRolesHeld', () => {
  const reader = role('r1', 'reader', ['work.read']);
  const writer = role('r2', 'writer', ['work.read', 'work.write']);
  const admin = role('r3', 'admin', ['org.manage']);

  it('passes for roles within what the grantor holds', () => {
    expect(() => requireRolesHeld(grantor(['work.read']), [reader], 'Granting')).not.toThrow();
  });

  it('names only the roles beyond the grantor, and what they lack', () => {
    const one = refusal(() => requireRolesHeld(grantor(['work.read']), [reader, writer], 'Granting'));
    expect(one.message).toBe('Granting the role writer needs permissions you do not hold: work.write');
    const two = refusal(() => requireRolesHeld(grantor(['work.read']), [writer, admin], 'Taking away'));
    expect(two.message).toBe(
      'Taking away the roles writer, admin needs permissions you do not hold: org.manage, work.write',
    );
  });
});

describe('requireRoleChangeHeld', () => {
  const writer = role('r2', 'writer', ['work.read', 'work.write']);

  it('allows adding and removing permissions the grantor holds on a role it does not hold', () => {
    expect(() =>
      requireRoleChangeHeld(grantor(['work.read', 'work.write', 'chat.read']), writer, ['work.read', 'chat.read']),
    ).not.toThrow();
  });

  it('refuses removing a permission the grantor lacks, even when adding nothing', () => {
    expect(refusal(() => requireRoleChangeHeld(grantor(['work.read']), writer, ['work.read'])).message).toBe(
      'Changing the permissions of the role writer needs permissions you do not hold: work.write',
    );
  });

  it('lets a holder of the role only remove permissions from it', () => {
    const holder = grantor(['work.read', 'work.write', 'chat.read'], ['r2']);
    expect(() => requireRoleChangeHeld(holder, writer, ['work.read'])).not.toThrow();
    const err = refusal(() => requireRoleChangeHeld(holder, writer, ['work.read', 'work.write', 'chat.read']));
    expect(err.code).toBe('permission_escalation');
    expect(err.message).toMatch(
      /^You hold the role writer yourself: only an owner can add permissions to it \(chat\.read\)/,
    );
  });

  it('lets an owner change any role, its own included', () => {
    expect(() => requireRoleChangeHeld(grantor([], ['r2'], true), writer, ['org.manage'])).not.toThrow();
  });

  it('accepts an unchanged set', () => {
    expect(() => requireRoleChangeHeld(grantor([], ['r2']), writer, ['work.write', 'work.read'])).not.toThrow();
  });
});
