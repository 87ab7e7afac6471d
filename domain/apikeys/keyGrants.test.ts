import { effectiveGrant, holds, neededFor } from './keyGrants';

const member = (permissions: string[], owner = false) => ({ owner, permissions: new Set(permissions) });

describe('what an API key may do', () => {
  it('needs read for read, and read and write for write', () => {
    expect(neededFor('knowledge', 'read')).toEqual(['knowledge.read']);
    expect(neededFor('knowledge', 'write')).toEqual(['knowledge.read', 'knowledge.write']);
    expect(neededFor('core', 'write')).toEqual(['core.customers.read', 'core.customers.write']);
  });

  it('holds what the member holds; an owner holds everything', () => {
    expect(holds(member(['knowledge.read']), ['knowledge.read'])).toBe(true);
    expect(holds(member(['knowledge.read']), ['knowledge.read', 'knowledge.write'])).toBe(false);
    expect(holds(member([], true), ['knowledge.write'])).toBe(true);
    expect(holds(member([]), [])).toBe(true);
  });

  it('keeps only the scopes its creator still holds', () => {
    const key = {
      module: 'knowledge' as const,
      scopes: ['read', 'write'] as ('read' | 'write')[],
      seesUnpublished: true,
    };
    expect(effectiveGrant(key, member(['knowledge.read', 'knowledge.write']))).toEqual({
      scopes: ['read', 'write'],
      seesUnpublished: true,
    });
    expect(effectiveGrant(key, member(['knowledge.read']))).toEqual({ scopes: ['read'], seesUnpublished: false });
    expect(effectiveGrant(key, member(['knowledge.write']))).toEqual({ scopes: [], seesUnpublished: false });
  });

  it('does nothing once its creator is no member, and sees unpublished articles only as recorded', () => {
    const key = { module: 'knowledge' as const, scopes: ['read'] as 'read'[], seesUnpublished: false };
    expect(effectiveGrant(key, null)).toEqual({ scopes: [], seesUnpublished: false });
    expect(effectiveGrant(key, member([], true))).toEqual({ scopes: ['read'], seesUnpublished: false });
    expect(effectiveGrant({ module: 'core', scopes: ['read'], seesUnpublished: true }, member([], true))).toEqual({
      scopes: ['read'],
      seesUnpublished: false,
    });
  });
});
