import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { newId } from '../../entities/base';
import { HrEmployee } from '../../entities/hr/employee';
import { User } from '../../entities/identity/user';
import { notFound } from '../../lib/errors';
import { checkZone } from '../../lib/timeZones';
import { tenantContext } from '../context';
import { audit } from '../platform/audit';
import { emitEvent } from '../webhooks/emitEvent';
import { employeeData } from '../webhooks/payloads';
import type { Services } from '../services';
import { DEFAULT_TIME_ZONE } from '../../lib/calendar';
import { employeeOfCandidate, employeeOfUser, organizationExists } from './store/employees';

export interface ProvisionEmployeeProps {
  organizationId: string;
  /** The recruitment module's candidate id: provisioning is idempotent on it. */
  candidateId: string;
  firstName: string;
  lastName: string;
  email: string;
  jobTitle?: string;
  department?: string;
  timeZone?: string;
  weeklyHours?: number;
  hireDate?: string;
  /** Further bootstrap fields of the hire, kept as given. */
  bootstrap?: Record<string, unknown>;
}

export interface Provisioned {
  employee: HrEmployee;
  created: boolean;
}

/**
 * Makes the employee of a hired candidate. The same candidate again returns the employee made the first time.
 * An identity account with the candidate's e-mail is linked (never a second profile; an employee already linked
 * to it is returned with the candidate recorded on it); otherwise the employee gets a provisional userId
 * (`userProvisional`) the identity account can take over when the person signs up. A new employee emits
 * `employee.created` in its transaction (userId null while provisional).
 */
export async function provisionEmployee(services: Services, props: ProvisionEmployeeProps): Promise<Provisioned> {
  const root = services.orm.em.fork();
  if (!(await organizationExists(root, props.organizationId))) throw notFound('Organisation');
  const ctx = tenantContext(services, props.organizationId, null);
  const timeZone = await checkZone(root, 'timeZone', props.timeZone ?? DEFAULT_TIME_ZONE);
  const email = props.email.toLowerCase();
  const existing = await employeeOfCandidate(ctx.em, props.candidateId);
  if (existing) return { employee: existing, created: false };
  const account = await root.findOne(User, { email }, { fields: ['id'] });
  try {
    return await ctx.em.transactional(async (em) => {
      const linked = account ? await employeeOfUser(em, account.id) : null;
      if (linked) {
        linked.candidateId ??= props.candidateId;
        return { employee: linked, created: false };
      }
      const employee = em.create(HrEmployee, {
        tenantId: ctx.tenantId,
        userId: account?.id ?? newId(),
        userProvisional: !account,
        candidateId: props.candidateId,
        firstName: props.firstName.trim(),
        lastName: props.lastName.trim(),
        email,
        jobTitle: props.jobTitle ?? null,
        department: props.department ?? null,
        timeZone,
        weeklyHours: props.weeklyHours ?? 35,
        hireDate: props.hireDate ?? null,
        bootstrap: props.bootstrap ?? {},
      });
      audit(em, {
        action: 'hr.employee.provisioned',
        tenantId: ctx.tenantId,
        targetType: 'hr_employee',
        targetId: employee.id,
        data: { candidateId: props.candidateId },
      });
      emitEvent(em, ctx.tenantId, 'employee.created', employeeData(employee));
      return { employee, created: true };
    });
  } catch (err) {
    // The same candidate provisioned concurrently: the other call made it.
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    const made = await employeeOfCandidate(tenantContext(services, props.organizationId).em, props.candidateId);
    if (!made) throw err;
    return { employee: made, created: false };
  }
}
