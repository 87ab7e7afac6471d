import { BookingService } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { checkGroup, type ServiceInput } from './catalogueInput';

export async function createService(
  ctx: TenantContext,
  input: Required<Pick<ServiceInput, 'name' | 'durationMinutes' | 'priceCents'>> & ServiceInput,
): Promise<BookingService> {
  await checkGroup(ctx.em, input.groupId);
  const service = ctx.em.create(BookingService, {
    tenantId: ctx.tenantId,
    groupId: input.groupId ?? null,
    name: input.name.trim(),
    description: input.description ?? null,
    durationMinutes: input.durationMinutes,
    priceCents: input.priceCents,
    currency: input.currency ?? 'EUR',
    bufferBeforeMinutes: input.bufferBeforeMinutes ?? 0,
    bufferAfterMinutes: input.bufferAfterMinutes ?? 0,
    minNoticeMinutes: input.minNoticeMinutes ?? 0,
    capacity: input.capacity ?? 1,
    maxAdvanceDays: input.maxAdvanceDays ?? null,
    questions: input.questions ?? [],
    active: input.active ?? true,
  });
  await ctx.em.flush();
  return service;
}
