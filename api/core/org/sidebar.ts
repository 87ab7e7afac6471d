import type { ModuleMount } from '../../http/mount';
import { noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { sidebarAccess } from '../../../domain/core/org/sidebarAccess';
import { sidebarCatalogue } from '../../../domain/core/org/sidebarCatalogue';
import {
  getSidebarPreferences,
  resetSidebarPreferences,
  setSidebarPreferences,
} from '../../../domain/core/org/sidebarPreferences';
import { deleteRoleDefault, listRoleDefaults, setRoleDefault } from '../../../domain/core/org/sidebarRoleDefaults';
import {
  SidebarAccessView,
  SidebarCatalogueView,
  SidebarEntryView,
  SidebarPreferencesView,
  SidebarRoleDefaultListView,
  SidebarRoleDefaultView,
} from './sidebarViews';
import { SidebarLayoutBody } from './workspaceDtos';
import { everySidebarEntryDoc, sidebarDoc, setSidebarArrangementDoc, sidebarDefaultsPerRoleDoc } from './sidebar.docs';

/** /api/sidebar: the catalogue of entries, my arrangement, what I may see, and role defaults set by an administrator. */
export function sidebarRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: sidebar');
  const gate = { access: 'user', module: 'core' } as const;
  const admin = { ...gate, permission: 'core.settings.manage' } as const;

  r.get(
    '/api/sidebar/catalogue',
    { ...gate, summary: 'Every sidebar entry', description: everySidebarEntryDoc, response: SidebarCatalogueView },
    () => ({ items: sidebarCatalogue.map(SidebarEntryView.from) }) satisfies SidebarCatalogueView,
  );

  r.get(
    '/api/sidebar/access',
    {
      ...gate,
      summary: 'My sidebar',
      description: sidebarDoc,
      response: SidebarAccessView,
    },
    async ({ ctx }) => SidebarAccessView.from(await sidebarAccess(ctx)),
  );

  r.get(
    '/api/sidebar/preferences',
    {
      ...gate,
      summary: 'My sidebar arrangement',
      description: 'custom false: the caller has none (empty lists).',
      response: SidebarPreferencesView,
    },
    async ({ ctx }) => SidebarPreferencesView.from(await getSidebarPreferences(ctx)),
  );

  r.put(
    '/api/sidebar/preferences',
    {
      ...gate,
      summary: 'Set my sidebar arrangement',
      description: setSidebarArrangementDoc,
      body: SidebarLayoutBody,
      response: SidebarPreferencesView,
    },
    async ({ ctx, body }) => SidebarPreferencesView.from(await setSidebarPreferences(ctx, body)),
  );

  r.delete(
    '/api/sidebar/preferences',
    {
      ...gate,
      summary: 'Reset my sidebar',
      description: 'The role default (or the catalogue order) applies again.',
      status: 204,
    },
    async ({ ctx }) => {
      await resetSidebarPreferences(ctx);
      return noContent();
    },
  );

  r.get(
    '/api/sidebar/role-defaults',
    {
      ...admin,
      summary: 'Sidebar defaults per role',
      description: 'Roles of the organisation that have one.',
      response: SidebarRoleDefaultListView,
    },
    async ({ ctx }) => ({
      items: (await listRoleDefaults(ctx)).map(SidebarRoleDefaultView.from),
    }),
  );

  r.put(
    '/api/sidebar/role-defaults/:id',
    {
      ...admin,
      summary: "Set a role's sidebar default",
      description: sidebarDefaultsPerRoleDoc,
      params: IdParams,
      body: SidebarLayoutBody,
      response: SidebarRoleDefaultView,
    },
    async ({ ctx, params, body }) => SidebarRoleDefaultView.from(await setRoleDefault(ctx, params.id, body)),
  );

  r.delete(
    '/api/sidebar/role-defaults/:id',
    {
      ...admin,
      summary: "Remove a role's sidebar default",
      description: 'Unknown role, or none set: 404.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteRoleDefault(ctx, params.id);
      return noContent();
    },
  );
}
