import { answerLink, confirmationDue, CONFIRMATION_RESEND_HOURS } from './subscriptions';

describe('confirmationDue', () => {
  const now = new Date('2026-12-02T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('mails an address never mailed', () => expect(confirmationDue(null, now)).toBe(true));

  it(`mails again only once the last confirmation is ${CONFIRMATION_RESEND_HOURS} hours old`, () => {
    expect(confirmationDue(hoursAgo(1), now)).toBe(false);
    expect(confirmationDue(new Date(hoursAgo(CONFIRMATION_RESEND_HOURS).getTime() + 1), now)).toBe(false);
    expect(confirmationDue(hoursAgo(CONFIRMATION_RESEND_HOURS), now)).toBe(true);
    expect(confirmationDue(hoursAgo(100), now)).toBe(true);
  });
});

describe('answerLink', () => {
  const now = new Date('2026-12-02T12:00:00Z');
  const earlier = new Date('2026-11-01T00:00:00Z');
  const subscriber = (status: 'pending' | 'confirmed' | 'unsubscribed') => ({
    status,
    confirmedAt: status === 'confirmed' ? earlier : null,
    unsubscribedAt: status === 'unsubscribed' ? earlier : null,
  });

  it('confirms a pending subscriber', () => {
    const s = subscriber('pending');
    answerLink(s, 'confirm', now);
    expect(s).toEqual({ status: 'confirmed', confirmedAt: now, unsubscribedAt: null });
  });

  it('leaves a confirmed or unsubscribed one as is when confirming', () => {
    for (const status of ['confirmed', 'unsubscribed'] as const) {
      const s = subscriber(status);
      answerLink(s, 'confirm', now);
      expect(s).toEqual(subscriber(status));
    }
  });

  it('unsubscribes any subscription once (the first stamp stays)', () => {
    for (const status of ['pending', 'confirmed'] as const) {
      const s = subscriber(status);
      answerLink(s, 'unsubscribe', now);
      expect(s).toMatchObject({ status: 'unsubscribed', unsubscribedAt: now });
    }
    const gone = subscriber('unsubscribed');
    answerLink(gone, 'unsubscribe', now);
    expect(gone.unsubscribedAt).toBe(earlier);
  });
});
