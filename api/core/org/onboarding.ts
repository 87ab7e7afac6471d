import type { ModuleMount } from '../../http/mount';
import { getBusiness } from '../../../domain/core/org/getBusiness';
import { dismissOnboarding, onboardingStatus, undismissOnboarding } from '../../../domain/core/org/onboarding';
import { OnboardingStatusView, WelcomePathView } from './sidebarViews';
import { onboardingStatusDoc, welcomePathDoc } from './onboarding.docs';

/** /api/onboarding: the checklist computed from the organisation's real records, the welcome path, dismissal. */
export function onboardingRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: onboarding');
  const gate = { access: 'user', module: 'core' } as const;

  r.get(
    '/api/onboarding',
    {
      ...gate,
      summary: 'Onboarding status',
      description: onboardingStatusDoc,
      response: OnboardingStatusView,
    },
    async ({ ctx }) => OnboardingStatusView.from(await onboardingStatus(ctx)),
  );

  r.get(
    '/api/onboarding/welcome',
    { ...gate, summary: 'My welcome path', description: welcomePathDoc, response: WelcomePathView },
    async ({ ctx }) => {
      const [business, status] = await Promise.all([getBusiness(ctx), onboardingStatus(ctx)]);
      return WelcomePathView.from(business.name, status);
    },
  );

  r.post(
    '/api/onboarding/dismiss',
    {
      ...gate,
      summary: 'Hide the checklist',
      description: 'For the caller only; again: no change. Answers the status.',
      response: OnboardingStatusView,
    },
    async ({ ctx }) => {
      await dismissOnboarding(ctx);
      return OnboardingStatusView.from(await onboardingStatus(ctx));
    },
  );

  r.delete(
    '/api/onboarding/dismiss',
    {
      ...gate,
      summary: 'Show the checklist again',
      description: 'Answers the status.',
      response: OnboardingStatusView,
    },
    async ({ ctx }) => {
      await undismissOnboarding(ctx);
      return OnboardingStatusView.from(await onboardingStatus(ctx));
    },
  );
}
