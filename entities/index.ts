import { ApiKey } from './apikeys/apiKey';
import { AppPassword } from './identity/appPassword';
import { RecoveryCode, TotpFactor } from './identity/mfa';
import { Passkey } from './identity/passkey';
import { ScimGroup, ScimGroupMember, ScimToken, ScimUser } from './identity/scim';
import { SsoDomain, SsoLink, SsoProvider } from './identity/sso';
import { Addon } from './billing/addon';
import { Activity } from './core/activity';
import { CrmImport, CrmImportPayload } from './core/crmImport';
import { CrmImportUpload, CrmImportUploadRows } from './core/crmImportUpload';
import { Customer } from './core/customer';
import { EInvoiceEvent, EInvoiceSubmission } from './core/einvoice';
import { Invoice, InvoicePayment } from './core/invoice';
import { InvoiceSequence, InvoiceSettings } from './core/invoiceNumbering';
import { InvoiceAccountingSettings, InvoicePaymentLink, InvoiceReminder } from './core/receivables';
import { Quote, QuoteInvoice, QuoteSequence } from './core/quote';
import { RecurringInvoice, RecurringInvoiceRun } from './core/recurringInvoice';
import { EInvoiceStatusMessage, SupplierInvoice, SupplierParty } from './core/supplierInvoice';
import { EReport, EReportingSettings, EReportItem } from './core/ereport';
import { coreOrgEntities } from './core/org';
import { CustomField } from './core/customField';
import { SavedView } from './core/savedView';
import { Deal, DealEvent } from './core/deal';
import { HealthScore } from './core/healthScore';
import { Pipeline, PipelineStage } from './core/pipeline';
import { CustomerRelation } from './core/relation';
import { coreBookingEntities } from './core/bookingEntities';
import { Plan } from './billing/plan';
import { Promotion } from './billing/promotion';
import { StripeEvent } from './billing/stripeEvent';
import { Subscription } from './billing/subscription';
import { AuditEntry } from './platform/audit';
import { CloudDavLock, CloudDavProperty } from './cloud/dav';
import { CloudNode } from './cloud/node';
import { CloudFileVersion } from './cloud/version';
import { CloudShare } from './cloud/share';
import { CloudPreview } from './cloud/preview';
import { CloudStar } from './cloud/star';
import { CloudUpload } from './cloud/upload';
import { CloudUsage, CloudUsageEvent } from './cloud/usage';
import { Broadcast, MailMessage } from './platform/mail';
import { Invitation, Membership, Organization, Role } from './identity/organization';
import { TokenRevocation } from './identity/revocation';
import { EmailToken, RefreshToken, UserSession } from './identity/session';
import { ExternalIdentity, User } from './identity/user';
import { HrClockCorrection, HrClockEvent } from './hr/clock';
import { HrComplianceAlert, HrComplianceRuleSet } from './hr/compliance';
import { HrEmployee } from './hr/employee';
import { HrLeaveLedgerEntry, HrLeaveRequest, HrLeaveType } from './hr/leave';
import { HrSchedule } from './hr/schedule';
import { HrWeekCounter } from './hr/timeCounter';
import { HrSettings } from './hr/settings';
import { HrPayrollCodes, HrPayrollMonth, HrPayrollMonthSummary } from './hr/payroll';
import { HrApprovalChain, HrApprovalDelegation, HrLeaveApproval } from './hr/approval';
import { HrDepartureSettlement } from './hr/settlement';
import { KnowledgeArticle, KnowledgeArticleVersion, KnowledgeComment } from './knowledge/article';
import { KnowledgeCollection, KnowledgeSpace } from './knowledge/space';
import {
  KnowledgeDailyStat,
  KnowledgeSearchMiss,
  KnowledgeStatsFlush,
  KnowledgeSubscriber,
} from './knowledge/subscriber';
import { VrRoom } from './vr/room';
import { HubDelivery } from './notifications/hubDelivery';
import { StagedJob } from './jobs/stagedJob';
import { ChatChannel, ChatIntegrationToken, ChatMessage } from './work/chat';
import { WorkGithubDelivery, WorkGithubSettings } from './work/github';
import { WorkItem } from './work/workItem';
import { webhookEntities } from './webhooks/webhook';
import { VrParticipant, VrSession } from './vr/session';
import { VrStepPass, VrTelemetryBatch, VrTelemetryEvent } from './vr/telemetry';

/** Every entity of the suite, registered with MikroORM (mikro-orm.config.ts). */
export const allEntities = [
  // identity
  User,
  ExternalIdentity,
  Organization,
  Role,
  Membership,
  Invitation,
  UserSession,
  RefreshToken,
  EmailToken,
  AuditEntry,
  MailMessage,
  Broadcast,
  TokenRevocation,
  AppPassword,
  TotpFactor,
  RecoveryCode,
  Passkey,
  ScimToken,
  ScimUser,
  ScimGroup,
  ScimGroupMember,
  SsoProvider,
  SsoLink,
  SsoDomain,
  // billing
  Plan,
  Subscription,
  Addon,
  Promotion,
  StripeEvent,
  // vr
  VrRoom,
  VrSession,
  VrParticipant,
  VrTelemetryEvent,
  VrTelemetryBatch,
  VrStepPass,
  // integration API keys (knowledge, core)
  ApiKey,
  // cloud
  CloudNode,
  CloudUpload,
  CloudShare,
  CloudStar,
  CloudPreview,
  CloudUsage,
  CloudUsageEvent,
  CloudDavProperty,
  CloudDavLock,
  CloudFileVersion,
  // core: CRM
  Customer,
  CustomField,
  SavedView,
  CustomerRelation,
  Activity,
  HealthScore,
  Pipeline,
  PipelineStage,
  Deal,
  DealEvent,
  CrmImport,
  CrmImportPayload,
  CrmImportUpload,
  CrmImportUploadRows,
  // core: invoicing
  Invoice,
  InvoicePayment,
  InvoiceSequence,
  Quote,
  QuoteInvoice,
  QuoteSequence,
  RecurringInvoice,
  RecurringInvoiceRun,
  InvoiceSettings,
  InvoiceAccountingSettings,
  InvoiceReminder,
  InvoicePaymentLink,
  EInvoiceSubmission,
  EInvoiceEvent,
  SupplierInvoice,
  EReport,
  EReportingSettings,
  EReportItem,
  SupplierParty,
  EInvoiceStatusMessage,
  // core: organisation (business, dashboards, sidebar, onboarding, assets)
  ...coreOrgEntities,
  // hr
  HrEmployee,
  HrSchedule,
  HrLeaveType,
  HrLeaveRequest,
  HrLeaveLedgerEntry,
  HrClockEvent,
  HrClockCorrection,
  HrComplianceRuleSet,
  HrComplianceAlert,
  HrWeekCounter,
  HrSettings,
  HrApprovalChain,
  HrLeaveApproval,
  HrPayrollCodes,
  HrPayrollMonth,
  HrPayrollMonthSummary,
  HrDepartureSettlement,
  HrApprovalDelegation,
  // knowledge
  KnowledgeSpace,
  KnowledgeCollection,
  KnowledgeArticle,
  KnowledgeArticleVersion,
  KnowledgeComment,
  KnowledgeSubscriber,
  KnowledgeDailyStat,
  KnowledgeSearchMiss,
  KnowledgeStatsFlush,
  // core: booking
  ...coreBookingEntities,
  // work items, code-host webhooks, chat integrations
  WorkItem,
  WorkGithubSettings,
  WorkGithubDelivery,
  ChatChannel,
  ChatIntegrationToken,
  ChatMessage,
  // outbound notifications: delivery outcomes
  HubDelivery,
  // jobs committed with their transaction, until enqueued
  StagedJob,
  // customers' webhooks: endpoints, events (the outbox), deliveries and their attempts
  ...webhookEntities,
];
