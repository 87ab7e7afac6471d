import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { createAddon } from '../../domain/billing/createAddon';
import { deleteAddon } from '../../domain/billing/deleteAddon';
import { addonCatalogue, listAllAddons } from '../../domain/billing/listAddons';
import { updateAddon } from '../../domain/billing/updateAddon';
import { AddonParams, CreateAddonBody, UpdateAddonBody } from './dtos';
import { AddonCatalogueView, AddonList, AddonView } from './views';
import { getAddons } from './addons.docs';

/** /api/addons: modules sold on their own. Bought with checkout or change-plan; edited by administrators. */
export function addonRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: add-ons');

  r.get(
    '/api/addons',
    {
      summary: 'Add-on catalogue',
      description: getAddons,
      access: 'user',
      response: AddonCatalogueView,
    },
    async ({ ctx }) => {
      const { addons, owned } = await addonCatalogue(ctx);
      return AddonCatalogueView.from(addons, owned);
    },
  );

  r.get(
    '/api/addons/all',
    { summary: 'Administrators: every add-on, on sale or not', access: 'admin', response: AddonList },
    async ({ ctx }) => ({
      items: (await listAllAddons(ctx.em)).map(AddonView.from),
    }),
  );

  r.post(
    '/api/addons',
    {
      summary: 'Administrators: put a module on sale as an add-on',
      access: 'admin',
      body: CreateAddonBody,
      response: AddonView,
      status: 201,
      errors: { 409: '`addon_exists`, `stripe_price_in_use`' },
    },
    async ({ ctx, body }) => {
      const addon = await createAddon(ctx, body);
      return created(AddonView.from(addon), `/api/addons/${addon.moduleKey}`);
    },
  );

  r.put(
    '/api/addons/:moduleKey',
    {
      summary: 'Administrators: edit an add-on',
      description: 'Fields left out are kept. `active: false` stops selling it; organisations holding it keep it.',
      access: 'admin',
      params: AddonParams,
      body: UpdateAddonBody,
      response: AddonView,
      errors: { 409: '`stripe_price_in_use`' },
    },
    async ({ ctx, params, body }) => AddonView.from(await updateAddon(ctx, params.moduleKey, body)),
  );

  r.delete(
    '/api/addons/:moduleKey',
    {
      summary: 'Administrators: delete an add-on',
      description: 'Refused with 409 `addon_in_use` while an organisation holds it: deactivate it instead.',
      access: 'admin',
      params: AddonParams,
      status: 204,
      errors: { 409: '`addon_in_use`' },
    },
    async ({ ctx, params }) => {
      await deleteAddon(ctx, params.moduleKey);
      return noContent();
    },
  );
}
