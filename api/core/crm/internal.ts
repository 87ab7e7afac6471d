import type { ModuleMount } from '../../http/mount';
import { internalContext, syncActivities } from '../../../domain/core/crm/syncActivities';
import { logEmail } from '../../../domain/core/crm/logEmail';
import { invalidField } from '../../../lib/errors';
import { ActivitySyncBody, LogEmailBody } from './dtos';
import { SyncResultView } from './importViews';
import { syncActivitiesFromAnotherDoc, logEMailContactsDoc } from './internal.docs';

const toDate = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

/** Machine-to-machine CRM routes: X-Internal-Secret, fail-closed (refused when INTERNAL_SECRET is unset). */
export function crmInternalRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM internal');

  r.post(
    '/api/internal/activity-sync',
    {
      access: 'internal',
      summary: 'Sync activities from another system',
      description: syncActivitiesFromAnotherDoc,
      body: ActivitySyncBody,
      bodyLimit: '2mb',
      response: SyncResultView,
      errors: { 404: 'The organisation does not exist' },
    },
    async ({ services, body }) => {
      const errors = body.activities.flatMap((a, i) => (!a.customerId === !a.customerEmail ? [i] : []));
      if (errors.length)
        throw invalidField(`activities[${errors[0]}].customerId`, 'give either customerId or customerEmail');
      const ctx = await internalContext(services, body.tenantId);
      return SyncResultView.from(
        await syncActivities(
          ctx,
          body.source,
          body.activities.map((a) => ({
            ...a,
            occurredAt: new Date(a.occurredAt),
            dueAt: toDate(a.dueAt),
            completedAt: toDate(a.completedAt),
          })),
        ),
      );
    },
  );

  r.post(
    '/api/customers/internal/log-email',
    {
      access: 'internal',
      summary: 'Log an e-mail on contacts',
      description: logEMailContactsDoc,
      body: LogEmailBody,
      bodyLimit: '1mb',
      response: SyncResultView,
      errors: { 404: 'The organisation does not exist' },
    },
    async ({ services, body }) => {
      if (body.direction === 'outbound' && !body.to.length && !body.cc?.length)
        throw invalidField('to', 'an outbound e-mail needs a recipient');
      const ctx = await internalContext(services, body.tenantId);
      return SyncResultView.from(await logEmail(ctx, { ...body, sentAt: new Date(body.sentAt) }));
    },
  );
}
