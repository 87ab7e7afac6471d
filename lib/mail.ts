import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** SMTP through nodemailer when SMTP_URL is set; null means mails stay in the outbox table. */
export function createMailTransport(config: Pick<Config, 'SMTP_URL'>): Transporter | null {
  return config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
}
