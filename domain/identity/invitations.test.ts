import { INVITATION_TTL_DAYS, invitationExpiry, isPending, withRole } from './invitations';
import { EMAIL_TOKEN_TTL_HOURS, emailTokenExpiry, INVALID_TOKEN_CODES } from './emailTokens';

describe('invitations', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('work for 7 days', () => {
    expect(INVITATION_TTL_DAYS).toBe(7);
    expect(invitationExpiry(now.getTime()).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });

  it('are pending until accepted or expired (expiry itself is past)', () => {
    const later = new Date('2026-03-02T00:00:00Z');
    expect(isPending({ acceptedAt: null, expiresAt: later }, now)).toBe(true);
    expect(isPending({ acceptedAt: now, expiresAt: later }, now)).toBe(false);
    expect(isPending({ acceptedAt: null, expiresAt: now }, now)).toBe(false);
    expect(isPending({ acceptedAt: null, expiresAt: new Date('2026-03-01T11:59:59Z') }, now)).toBe(false);
  });

  it('turn the role columns of a lean row into a role reference', () => {
    const row = { id: 'i1', email: 'a@example.com', roleId: 'r1', roleKey: 'member', roleName: 'Member' };
    expect(withRole(row as never)).toEqual({
      id: 'i1',
      email: 'a@example.com',
      role: { id: 'r1', key: 'member', name: 'Member' },
    });
  });
});

describe('mailed e-mail tokens', () => {
  it('work 48 hours for a confirmation, 1 hour for a reset', () => {
    expect(EMAIL_TOKEN_TTL_HOURS).toEqual({ confirm_email: 48, reset_password: 1 });
    const t = Date.parse('2026-03-01T12:00:00Z');
    expect(emailTokenExpiry('confirm_email', t).toISOString()).toBe('2026-03-03T12:00:00.000Z');
    expect(emailTokenExpiry('reset_password', t).toISOString()).toBe('2026-03-01T13:00:00.000Z');
  });

  it('are refused with the code of their purpose', () => {
    expect(INVALID_TOKEN_CODES).toEqual({
      confirm_email: 'confirmation_token_invalid',
      reset_password: 'reset_token_invalid',
    });
  });
});
