import { Plan } from './billing/plan';
import { Subscription } from './billing/subscription';
import { AuditEntry } from './identity/audit';
import { Broadcast, MailMessage } from './identity/mail';
import { Invitation, Membership, Organization, Role } from './identity/organization';
import { EmailToken, RefreshToken, UserSession } from './identity/session';
import { ExternalIdentity, User } from './identity/user';

/** Every entity of the suite, registered with MikroORM (mikro-orm.config.ts). */
export const allEntities = [
  // identity
  User, ExternalIdentity, Organization, Role, Membership, Invitation, UserSession, RefreshToken, EmailToken, AuditEntry, MailMessage, Broadcast,
  // billing
  Plan, Subscription,
];
