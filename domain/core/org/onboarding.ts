import { OnboardingDismissal } from '../../../entities/core/onboarding';
import { newId } from '../../../entities/base';
import type { TenantContext } from '../../context';
import { callerAccess, mayUse, type Gated } from './access';
import { getBusiness } from './getBusiness';
import { deleteOnboardingDismissal } from './store';

interface StepDef extends Gated {
  key: string;
  title: string;
  description: string;
  /** Page of the app where the step is done. */
  path: string;
}

/** The welcome path, in order. Each step is checked against real state, never ticked by hand. */
const steps: StepDef[] = [
  {
    key: 'business_profile',
    title: 'Complete your business details',
    description: 'Registered address and SIREN, SIRET or VAT number, printed on invoices.',
    path: '/settings/business',
    module: 'core',
    permission: 'core.settings.manage',
  },
  {
    key: 'first_member_invited',
    title: 'Invite your team',
    description: 'Invite a first colleague (or have one join).',
    path: '/settings/members',
    module: null,
    permission: 'org.members.invite',
  },
  {
    key: 'first_service',
    title: 'Create a first service',
    description: 'A service customers can book.',
    path: '/settings/services',
    module: 'core',
    permission: 'core.appointments.manage',
  },
  {
    key: 'first_contact',
    title: 'Add a first contact',
    description: 'A customer or prospect in the CRM.',
    path: '/customers',
    module: 'core',
    permission: 'core.customers.write',
  },
  {
    key: 'first_invoice',
    title: 'Create a first invoice',
    description: 'A draft is enough.',
    path: '/invoices',
    module: 'core',
    permission: 'core.invoices.issue',
  },
  {
    key: 'public_slug',
    title: 'Choose your public address',
    description: 'The public slug of your storefront.',
    path: '/settings/business',
    module: 'core',
    permission: 'core.settings.manage',
  },
  {
    key: 'first_file',
    title: 'Upload a first file',
    description: 'Into the drive.',
    path: '/drive',
    module: 'cloud',
    permission: 'cloud.write',
  },
  {
    key: 'first_vr_room',
    title: 'Create a VR training room',
    description: 'Where trainees meet in the headset.',
    path: '/vr/rooms',
    module: 'vr',
    permission: 'vr.rooms.manage',
  },
  {
    key: 'first_employee',
    title: 'Add a first employee',
    description: 'To track time and leave.',
    path: '/hr/employees',
    module: 'rh',
    permission: 'hr.employees.manage',
  },
];

export interface OnboardingStep extends StepDef {
  done: boolean;
  /** Whether the caller may do this step (permission held). */
  canDo: boolean;
}

export interface OnboardingStatus {
  steps: OnboardingStep[];
  completed: number;
  total: number;
  percent: number;
  complete: boolean;
  /** First step not done that the caller can do; null when none. */
  nextStep: string | null;
  dismissedAt: Date | null;
}

/**
 * One statement: whether each piece of state exists (each an index probe on tenant_id). A colleague is invited
 * while an invitation is pending (neither accepted nor expired) or was accepted, or when someone else is a
 * member; a revoked invitation (deleted) or one that expired unaccepted does not count.
 */
async function stateOf(ctx: TenantContext): Promise<Record<string, boolean>> {
  const t = ctx.tenantId;
  const [r] = await ctx.em.execute<Record<string, boolean>[]>(
    `select exists(select 1 from invitations where tenant_id = ? and (accepted_at is not null or expires_at > now())) or (select count(*) from memberships where tenant_id = ?) > 1 as first_member_invited,
            exists(select 1 from booking_services where tenant_id = ?) as first_service,
            exists(select 1 from crm_customers where tenant_id = ?) as first_contact,
            exists(select 1 from inv_invoices where tenant_id = ?) as first_invoice,
            exists(select 1 from cloud_nodes where tenant_id = ? and purpose = 'file' and kind = 'file') as first_file,
            exists(select 1 from vr_rooms where tenant_id = ?) as first_vr_room,
            exists(select 1 from hr_employees where tenant_id = ?) as first_employee`,
    [t, t, t, t, t, t, t, t],
  );
  return r;
}

/**
 * The onboarding checklist of the caller's organisation: the steps of the modules in use, each done or not
 * from the organisation's real records (business details filled, a colleague invited, a first service,
 * contact, invoice ...), and the caller's own dismissal.
 */
export async function onboardingStatus(ctx: TenantContext): Promise<OnboardingStatus> {
  const [business, access, state, dismissal] = await Promise.all([
    getBusiness(ctx),
    callerAccess(ctx),
    stateOf(ctx),
    ctx.em.findOne(OnboardingDismissal, { userId: ctx.userId! }),
  ]);
  const facts: Record<string, boolean> = {
    ...state,
    business_profile: !!business.address && !!(business.siren || business.siret || business.vatNumber),
    public_slug: !!business.publicSlug,
  };
  const list = steps
    .filter((s) => s.module === null || access.modules.includes(s.module))
    .map((s) => ({
      ...s,
      done: !!facts[s.key],
      canDo: mayUse(access, { module: s.module, permission: s.permission }),
    }));
  const completed = list.filter((s) => s.done).length;
  return {
    steps: list,
    completed,
    total: list.length,
    percent: list.length ? Math.round((completed * 100) / list.length) : 100,
    complete: completed === list.length,
    nextStep: list.find((s) => !s.done && s.canDo)?.key ?? null,
    dismissedAt: dismissal?.createdAt ?? null,
  };
}

/** The caller hides the checklist and welcome path (again: no change). */
export async function dismissOnboarding(ctx: TenantContext): Promise<void> {
  await ctx.em.upsert(
    OnboardingDismissal,
    { id: newId(), tenantId: ctx.tenantId, createdAt: new Date(), userId: ctx.userId! },
    { onConflictFields: ['tenantId', 'userId'], onConflictAction: 'ignore' },
  );
}

/** The caller shows them again. */
export async function undismissOnboarding(ctx: TenantContext): Promise<void> {
  await deleteOnboardingDismissal(ctx.em, ctx.userId!);
}
