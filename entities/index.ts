import { Addon } from './billing/addon';
import { Plan } from './billing/plan';
import { Promotion } from './billing/promotion';
import { StripeEvent } from './billing/stripeEvent';
import { Subscription } from './billing/subscription';
import { AuditEntry } from './identity/audit';
import { Broadcast, MailMessage } from './identity/mail';
import { Invitation, Membership, Organization, Role } from './identity/organization';
import { EmailToken, RefreshToken, UserSession } from './identity/session';
import { ExternalIdentity, User } from './identity/user';
import { VrRoom } from './vr/room';
import { VrParticipant, VrSession } from './vr/session';
import { VrStepPass, VrTelemetryBatch, VrTelemetryEvent } from './vr/telemetry';

/** Every entity of the suite, registered with MikroORM (mikro-orm.config.ts). */
export const allEntities = [
  // identity
  User, ExternalIdentity, Organization, Role, Membership, Invitation, UserSession, RefreshToken, EmailToken, AuditEntry, MailMessage, Broadcast,
  // billing
  Plan, Subscription, Addon, Promotion, StripeEvent,
  // vr
  VrRoom, VrSession, VrParticipant, VrTelemetryEvent, VrTelemetryBatch, VrStepPass,
];
