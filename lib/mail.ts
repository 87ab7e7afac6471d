import type { Transporter } from 'nodemailer';
import type { Config } from './config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** SMTP through nodemailer when SMTP_URL is set; null means mails stay in the outbox table. */
export function createMailTransport(config: Pick<Config, 'SMTP_URL'>): Transporter | null {
  // Required here, not at startup (lib/lazy.ts): only a dyno that sends mail loads nodemailer.
  return config.SMTP_URL
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('nodemailer') as typeof import('nodemailer')).createTransport(config.SMTP_URL)
    : null;
}
