import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/** A member who dismissed the onboarding checklist and welcome path (the status itself is computed, never stored). */
export const OnboardingDismissal = defineEntity({
  name: 'OnboardingDismissal',
  tableName: 'core_onboarding_dismissals',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
  },
});
export type OnboardingDismissal = InferEntity<typeof OnboardingDismissal>;
