/** Plain-text mails of the identity service. Links point at the front end (APP_URL). */
export type MailTemplate =
  | { template: 'confirm_email'; data: { name: string; token: string } }
  | { template: 'reset_password'; data: { name: string; token: string } }
  | { template: 'invitation'; data: { organization: string; inviter: string; token: string } }
  | { template: 'broadcast'; data: { subject: string; text: string } };

export function renderMail(appUrl: string, mail: MailTemplate): { subject: string; text: string } {
  const link = (path: string, token: string) => `${appUrl.replace(/\/$/, '')}${path}?token=${encodeURIComponent(token)}`;
  switch (mail.template) {
    case 'confirm_email':
      return {
        subject: 'Confirm your e-mail address',
        text: `Hello ${mail.data.name},\n\nConfirm your e-mail address by opening:\n${link('/confirm-email', mail.data.token)}\n\nThis link expires in 48 hours.`,
      };
    case 'reset_password':
      return {
        subject: 'Reset your password',
        text: `Hello ${mail.data.name},\n\nSomeone asked to reset your password. To choose a new one, open:\n${link('/reset-password', mail.data.token)}\n\nThis link expires in 1 hour and works once. If you did not ask for it, ignore this mail.`,
      };
    case 'invitation':
      return {
        subject: `${mail.data.inviter} invited you to ${mail.data.organization}`,
        text: `${mail.data.inviter} invited you to join ${mail.data.organization}.\n\nAccept the invitation:\n${link('/invitations/accept', mail.data.token)}\n\nThis invitation expires in 7 days.`,
      };
    case 'broadcast':
      return { subject: mail.data.subject, text: mail.data.text };
  }
}
