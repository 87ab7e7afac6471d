import type { Em } from '../../../lib/db';

/**
 * Statements of an account's own data across the suite: what its export reads (domain/identity/exportAccountData.ts)
 * and what its deletion erases or pseudonymises (domain/identity/deleteAccount.ts). docs/identity.md, "Your data:
 * export and deletion", lists every table with a user id and what each statement does with it. Plain SQL over
 * every organisation (no tenant filter): the account is the subject, wherever its rows are.
 */

export type Row = Record<string, unknown>;

/** Rows of the export read whole (small per account: bounded by what a person creates by hand). */
const SECTIONS = {
  account: `select id, email, display_name as "displayName", locale, timezone, email_confirmed_at as "emailConfirmedAt",
      is_platform_admin as "isPlatformAdmin", disabled_at as "disabledAt", last_login_at as "lastLoginAt",
      created_at as "createdAt", updated_at as "updatedAt"
    from users where id = ?`,
  scimLinks: `select tenant_id as "organizationId", user_name as "userName", external_id as "externalId",
      display_name as "displayName", given_name as "givenName", family_name as "familyName", created_at as "createdAt"
    from identity_scim_users where user_id = ? order by created_at`,
  scimGroups: `select g.tenant_id as "organizationId", g.display_name as "displayName", g.external_id as "externalId",
      g.role_key as "roleKey", m.created_at as "joinedAt"
    from identity_scim_group_members m join identity_scim_groups g on g.id = m.group_id
    where m.user_id = ? order by m.created_at`,
  ssoLinks: `select tenant_id as "organizationId", issuer, subject, created_at as "createdAt",
      last_sign_in_at as "lastSignInAt"
    from identity_sso_links where user_id = ? order by created_at`,
  externalIdentities: `select provider, subject, created_at as "createdAt" from external_identities where user_id = ? order by created_at`,
  memberships: `select m.tenant_id as "organizationId", o.name as "organizationName", m.created_at as "joinedAt",
      coalesce((select array_agg(r.key order by r.key) from membership_roles mr join roles r on r.id = mr.role_id
        where mr.membership_id = m.id), '{}') as roles
    from memberships m join organizations o on o.id = m.tenant_id where m.user_id = ? order by m.created_at`,
  sessions: `select id, tenant_id as "organizationId", ip, user_agent as "userAgent", created_at as "createdAt",
      last_used_at as "lastUsedAt", expires_at as "expiresAt", revoked_at as "endedAt", revoked_reason as "endReason"
    from user_sessions where user_id = ? order by created_at`,
  totp: `select created_at as "createdAt", confirmed_at as "confirmedAt",
      (select count(*)::int from identity_recovery_codes c where c.user_id = f.user_id) as "recoveryCodes",
      (select count(*)::int from identity_recovery_codes c where c.user_id = f.user_id and c.used_at is not null) as "recoveryCodesUsed"
    from identity_totp_factors f where user_id = ?`,
  passkeys: `select id, name, transports, created_at as "createdAt", last_used_at as "lastUsedAt"
    from identity_passkeys where user_id = ? order by created_at`,
  appPasswords: `select id, tenant_id as "organizationId", name, scopes, created_at as "createdAt",
      last_used_at as "lastUsedAt", revoked_at as "revokedAt"
    from identity_app_passwords where user_id = ? order by created_at`,
  apiKeys: `select id, tenant_id as "organizationId", module, label, scopes, prefix, created_at as "createdAt",
      last_used_at as "lastUsedAt"
    from api_keys where created_by = ? order by created_at`,
  invitationsReceived: `select i.id, i.tenant_id as "organizationId", o.name as "organizationName", i.created_at as "createdAt",
      i.expires_at as "expiresAt", i.accepted_at as "acceptedAt"
    from invitations i join organizations o on o.id = i.tenant_id
    where i.email = (select email from users where id = ?) or i.accepted_by_id = ? order by i.created_at`,
  mails: `select id, tenant_id as "organizationId", template, subject, status, created_at as "createdAt", sent_at as "sentAt"
    from mail_messages where "to" = (select email from users where id = ?) order by created_at`,
  employees: `select id, tenant_id as "organizationId", first_name as "firstName", last_name as "lastName", email,
      job_title as "jobTitle", department, time_zone as "timeZone", weekly_hours::float8 as "weeklyHours",
      hire_date::text as "hireDate", end_date::text as "endDate", status
    from hr_employees where user_id = ? and not user_provisional order by created_at`,
  bookingStaff: `select id, tenant_id as "organizationId", display_name as "displayName", email, phone, bio, active
    from booking_staff where user_id = ? order by created_at`,
  vrParticipations: `select session_id as "sessionId", tenant_id as "organizationId", display_name as "displayName",
      is_host as "isHost", joined_at as "joinedAt", left_at as "leftAt", steps_passed as "stepsPassed",
      completed_at as "completedAt"
    from vr_session_participants where user_id = ? order by created_at`,
  calendarEvents: `select id, tenant_id as "organizationId", title, start_at as "startAt", end_at as "endAt", all_day as "allDay"
    from calendar_events where owner_id = ? order by start_at`,
  calendarConnections: `select id, tenant_id as "organizationId", name, url, username, status, created_at as "createdAt"
    from calendar_connections where owner_id = ? order by created_at`,
  dashboards: `select id, tenant_id as "organizationId", name, created_at as "createdAt" from core_dashboards where user_id = ? order by created_at`,
  knowledgeArticles: `select id, tenant_id as "organizationId", title, created_at as "createdAt"
    from knowledge_articles where author_id = ? order by created_at`,
  knowledgeComments: `select id, tenant_id as "organizationId", article_id as "articleId", created_at as "createdAt"
    from knowledge_comments where author_id = ? order by created_at`,
  crmActivities: `select id, tenant_id as "organizationId", customer_id as "customerId", subject as title, created_at as "createdAt"
    from crm_activities where created_by = ? order by created_at`,
  crmDeals: `select id, tenant_id as "organizationId", title, created_at as "createdAt" from crm_deals where owner_id = ? order by created_at`,
  crmCustomers: `select id, tenant_id as "organizationId", name as title, created_at as "createdAt"
    from crm_customers where owner_id = ? order by created_at`,
} as const;

export type ExportSection = keyof typeof SECTIONS;

/** One whole section of the export (placeholders all take the account id). */
export function exportSection(em: Em, section: ExportSection, userId: string): Promise<Row[]> {
  const sql = SECTIONS[section];
  return em.execute<Row[]>(
    sql,
    Array.from({ length: sql.split('?').length - 1 }, () => userId),
  );
}

/** Rows per read of the sections read in batches (flat memory however many there are). */
export const EXPORT_BATCH = 1000;

/**
 * The next batch of an employee record's punches (with their corrections), after a position (`at` as PostgreSQL
 * prints it to the microsecond, and id): the (employee_id, at) index, one range per batch.
 */
export const clockEventsAfter = (em: Em, employeeId: string, after: [string, string] | null) =>
  em.execute<Row[]>(
    `select e.id, e.kind, e.at, e.time_zone as "timeZone", e.source, e.note, e.recorded_by as "recordedBy",
        coalesce((select json_agg(json_build_object('action', c.action, 'at', c.at, 'kind', c.kind, 'reason', c.reason,
          'createdAt', c.created_at) order by c.id) from hr_clock_corrections c where c.clock_event_id = e.id), '[]') as corrections,
        e.at::text as "position"
      from hr_clock_events e
      where e.employee_id = ? and (e.at, e.id) > (coalesce(?::timestamptz, '-infinity'), coalesce(?::uuid, '00000000-0000-0000-0000-000000000000'))
      order by e.at, e.id limit ${EXPORT_BATCH}`,
    [employeeId, after?.[0] ?? null, after?.[1] ?? null],
  );

/** Leave requests of an employee record. */
export const leaveRequestsOf = (em: Em, employeeId: string) =>
  em.execute<Row[]>(
    `select r.id, t.name as "leaveType", r.start_date::text as "startDate", r.start_half as "startHalf",
        r.end_date::text as "endDate", r.end_half as "endHalf", r.days::float8 as days, r.comment, r.status,
        r.created_at as "createdAt", r.decided_at as "decidedAt", r.decision_reason as "decisionReason",
        r.cancelled_at as "cancelledAt"
      from hr_leave_requests r left join hr_leave_types t on t.id = r.leave_type_id
      where r.employee_id = ? order by r.start_date, r.id`,
    [employeeId],
  );

/** Closed payroll months of an employee record (the figures the payroll export carried). */
export const payrollMonthsOf = (em: Em, employeeId: string) =>
  em.execute<Row[]>(
    `select month, first_name as "firstName", last_name as "lastName", worked_minutes as "workedMinutes",
        night_minutes as "nightMinutes", sunday_minutes as "sundayMinutes", overtime_first_minutes as "overtimeFirstMinutes",
        overtime_second_minutes as "overtimeSecondMinutes", absences, balances, created_at as "closedAt"
      from hr_payroll_month_summaries where employee_id = ? order by month`,
    [employeeId],
  );

/** The next batch of audit entries the account is the actor of, oldest first (the (actor_id, created_at) index). */
export const actorAuditAfter = (em: Em, userId: string, after: [string, string] | null) =>
  em.execute<Row[]>(
    `select id, created_at as "createdAt", tenant_id as "organizationId", action, target_type as "targetType",
        target_id as "targetId", ip, data, created_at::text as "position"
      from audit_entries
      where actor_id = ? and (created_at, id) > (coalesce(?::timestamptz, '-infinity'), coalesce(?::uuid, '00000000-0000-0000-0000-000000000000'))
      order by created_at, id limit ${EXPORT_BATCH}`,
    [userId, after?.[0] ?? null, after?.[1] ?? null],
  );

// --- Deletion -------------------------------------------------------------------------------------------------

/** The account row, locked until the transaction ends: one deletion at a time, and no new membership meanwhile. */
export const lockAccount = async (tx: Em, userId: string) =>
  (
    await tx.execute<{ id: string; email: string; password_hash: string | null }[]>(
      'select id, email, password_hash from users where id = ? for update',
      [userId],
    )
  )[0] ?? null;

/**
 * Locks the organisations of the account's memberships (the row lock membership changes take,
 * domain/identity/members.ts), in id order. Taken before the account row, in the order a membership's creation
 * takes them (the organisation, then the account row its foreign key shares), so the two never deadlock.
 */
export const lockOrganizationsOf = (tx: Em, userId: string) =>
  tx.execute(
    `select o.id from organizations o join memberships m on m.tenant_id = o.id and m.user_id = ?
      order by o.id for update of o`,
    [userId],
  );

/** The organisations of the account with its standing in each (read under their locks). */
export const standingsOf = (tx: Em, userId: string) =>
  tx.execute<{ tenantId: string; name: string; owner: boolean; owners: number; members: number; billed: boolean }[]>(
    `select o.id as "tenantId", o.name,
        exists (select 1 from memberships m join membership_roles mr on mr.membership_id = m.id join roles r on r.id = mr.role_id
          where m.tenant_id = o.id and m.user_id = ? and r.key = 'owner') as owner,
        (select count(distinct m.id)::int from memberships m join membership_roles mr on mr.membership_id = m.id
          join roles r on r.id = mr.role_id where m.tenant_id = o.id and r.key = 'owner') as owners,
        (select count(*)::int from memberships m where m.tenant_id = o.id) as members,
        exists (select 1 from subscriptions s where s.tenant_id = o.id and s.stripe_subscription_id is not null
          and s.status <> 'canceled' and not s.cancel_at_period_end) as billed
      from organizations o join memberships m on m.tenant_id = o.id and m.user_id = ? order by o.id`,
    [userId, userId],
  );

/** Suspends organisations left without members, as an administrator's suspension does (data kept). */
export const suspendOrganizations = (tx: Em, tenantIds: string[], reason: string) =>
  tenantIds.length
    ? tx.execute(
        `update organizations set suspended_at = coalesce(suspended_at, now()), suspended_reason = coalesce(suspended_reason, ?),
          updated_at = now() where id in (${tenantIds.map(() => '?').join(', ')})`,
        [reason, ...tenantIds],
      )
    : Promise.resolve();

/** Deletes the API keys the account created, answering their secret hashes (for ApiKeyResolver.forget). */
export const deleteApiKeysOf = async (tx: Em, userId: string) =>
  (
    await tx.execute<{ secret_hash: string }[]>('delete from api_keys where created_by = ? returning secret_hash', [
      userId,
    ])
  ).map((r) => r.secret_hash);

/**
 * Rows of other modules that are the person's own and mean nothing without them: deleted. Each statement takes the
 * account id once.
 */
const ERASED = [
  'delete from calendar_feeds where user_id = ?',
  'delete from calendar_connections where owner_id = ?',
  'delete from calendar_external_events where owner_id = ?',
  // The personal calendar; its deletion trigger leaves DAV tombstones for sync clients, of an owner now gone.
  'delete from calendar_events where owner_id = ?',
  'delete from calendar_dav_tombstones where owner_id = ?',
  'delete from cloud_stars where user_id = ?',
  'delete from core_dashboards where user_id = ?',
  'delete from core_sidebar_preferences where user_id = ?',
  'delete from core_onboarding_dismissals where user_id = ?',
  'delete from crm_saved_views where owner_id = ?',
];

/**
 * Records that must stay (the organisation's HR file, booking staff, sessions of training) keep their rows: the
 * person's name and e-mail are replaced by the pseudonym and the link to the account is cut. Each statement
 * takes the pseudonym, then the account id.
 */
const PSEUDONYMISED = [
  `update hr_employees set first_name = ?, last_name = '', email = null, user_id = null, updated_at = now()
    where user_id = ? and not user_provisional`,
  `update booking_staff set display_name = ?, email = null, phone = null, bio = null, user_id = null, updated_at = now()
    where user_id = ?`,
  'update vr_session_participants set display_name = ? where user_id = ?',
  'update chat_messages set author = ? where author_id = ?',
];

export async function eraseModuleData(tx: Em, userId: string, pseudonym: string): Promise<void> {
  for (const sql of ERASED) await tx.execute(sql, [userId]);
  for (const sql of PSEUDONYMISED) await tx.execute(sql, [pseudonym, userId]);
}

/**
 * The audit trail keeps its rows: the entries of the account (as actor or target) lose their client address, and
 * the e-mail address is replaced by the pseudonym where an entry names it (failed sign-ins, invitations). The
 * mails sent to the address go (their texts hold the name and links).
 */
export async function pseudonymiseTrail(tx: Em, userId: string, email: string, pseudonym: string): Promise<void> {
  await tx.execute(
    `update audit_entries set ip = null,
        data = case when data->>'email' = ? then jsonb_set(data, '{email}', to_jsonb(?::text)) else data end
      where actor_id = ? or (target_type = 'user' and target_id = ?)`,
    [email, pseudonym, userId, userId],
  );
  await tx.execute(
    `update audit_entries set data = jsonb_set(data, '{email}', to_jsonb(?::text))
      where action in ('auth.login_failed', 'org.invitation_sent', 'org.invitation_revoked') and data->>'email' = ?`,
    [pseudonym, email],
  );
  await tx.execute('delete from mail_messages where "to" = ?', [email]);
}

/**
 * The account row goes last: its foreign keys delete, in the same statement, its memberships (and their roles,
 * which frees the seats), sessions and refresh tokens, e-mail tokens, TOTP factor and recovery codes, passkeys,
 * app passwords, external identities and SCIM links. The address is free for a new sign-up once committed.
 */
export const deleteAccountRow = async (tx: Em, userId: string) =>
  (await tx.execute<{ id: string }[]>('delete from users where id = ? returning id', [userId])).length === 1;
