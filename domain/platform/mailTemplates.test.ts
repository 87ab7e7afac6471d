import { renderMail } from './mailTemplates';

describe('renderMail', () => {
  const app = 'https://app.example.com/';

  it('links the confirmation to the front end, token encoded, and quotes its 48 hours', () => {
    const { subject, text } = renderMail(app, { template: 'confirm_email', data: { name: 'Ada', token: 'a+b/c=' } });
    expect(subject).toBe('Confirm your e-mail address');
    expect(text).toBe(
      'Hello Ada,\n\nConfirm your e-mail address by opening:\nhttps://app.example.com/confirm-email?token=a%2Bb%2Fc%3D\n\nThis link expires in 48 hours.',
    );
  });

  it('quotes the reset link as lasting 1 hour (singular)', () => {
    const { subject, text } = renderMail('https://app.example.com', {
      template: 'reset_password',
      data: { name: 'Ada', token: 't' },
    });
    expect(subject).toBe('Reset your password');
    expect(text).toContain('\nhttps://app.example.com/reset-password?token=t\n');
    expect(text).toContain('This link expires in 1 hour and works once.');
  });

  it('tells an existing account how to sign in, without any token', () => {
    const { subject, text } = renderMail(app, { template: 'account_exists', data: { name: 'Ada' } });
    expect(subject).toBe('You already have an account');
    expect(text).toContain(
      'Sign in at https://app.example.com/login, or choose a new password at https://app.example.com/forgot-password',
    );
    expect(text).not.toContain('token=');
  });

  it('names inviter and organisation of an invitation, valid 7 days', () => {
    const { subject, text } = renderMail(app, {
      template: 'invitation',
      data: { organization: 'Acme', inviter: 'Grace', token: 'tok' },
    });
    expect(subject).toBe('Grace invited you to Acme');
    expect(text).toBe(
      'Grace invited you to join Acme.\n\nAccept the invitation:\nhttps://app.example.com/invitations/accept?token=tok\n\nThis invitation expires in 7 days.',
    );
  });

  it('sends a broadcast as written', () => {
    expect(renderMail(app, { template: 'broadcast', data: { subject: 'Maintenance', text: 'Tonight.\n' } })).toEqual({
      subject: 'Maintenance',
      text: 'Tonight.\n',
    });
  });

  it("links a booking's confirmation to its manage page and a sign-in to the store's", () => {
    const booked = renderMail(app, {
      template: 'booking_confirmation',
      data: { business: 'Salon', service: 'Cut', when: 'Mon 2 Mar 10:00', reference: 'B-1', slug: 'salon', token: 'm' },
    });
    expect(booked.subject).toBe('Your appointment at Salon: Mon 2 Mar 10:00');
    expect(booked.text).toContain(
      'Cut, Mon 2 Mar 10:00\nReference: B-1\n\nTo cancel or reschedule, open:\nhttps://app.example.com/book/salon/manage?token=m',
    );
    const signIn = renderMail(app, {
      template: 'booking_sign_in',
      data: { business: 'Salon', slug: 'salon', token: 's' },
    });
    expect(signIn.text).toContain('https://app.example.com/book/salon/sign-in?token=s');
  });

  it('reminds without a token: the sign-in page with a store, the business without one', () => {
    const data = { business: 'Salon', service: 'Cut', when: 'Mon 2 Mar 10:00', reference: 'B-1' };
    const withStore = renderMail(app, { template: 'booking_reminder', data: { ...data, slug: 'salon' } });
    expect(withStore.subject).toBe('Reminder: Cut at Salon, Mon 2 Mar 10:00');
    expect(withStore.text).toContain('sign in at https://app.example.com/book/salon/sign-in to see your appointments.');
    expect(withStore.text).not.toContain('token=');
    expect(renderMail(app, { template: 'booking_reminder', data: { ...data, slug: null } }).text).toMatch(
      /To cancel or reschedule, contact the business\.$/,
    );
  });
});
