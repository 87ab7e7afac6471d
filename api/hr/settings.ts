import { hrSettingsOf } from '../../domain/hr/settings';
import { updateHrSettings } from '../../domain/hr/updateHrSettings';
import type { ModuleMount } from '../http/mount';
import { HrSettingsBody, HrSettingsView } from './settingsViews';

/** The organisation's HR settings. */
export function settingsRoutes({ routes }: ModuleMount): void {
  const r = routes('HR settings');
  const gate = { access: 'user', module: 'rh', permission: 'hr.employees.manage' } as const;

  r.get(
    '/api/rh/settings',
    {
      ...gate,
      summary: 'HR settings',
      description: "The organisation's HR settings, defaults filled in until first edited.",
      response: HrSettingsView,
    },
    async ({ ctx }) => HrSettingsView.from(await hrSettingsOf(ctx)),
  );

  r.put(
    '/api/rh/settings',
    {
      ...gate,
      summary: 'Edit the HR settings',
      description: 'Given fields replace the current values, absent ones are kept. Audited (`hr.settings.updated`).',
      body: HrSettingsBody,
      response: HrSettingsView,
    },
    async ({ ctx, body }) => HrSettingsView.from(await updateHrSettings(ctx, body)),
  );
}
