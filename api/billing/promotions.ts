import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { created, noContent } from '../http/routes';
import { deletePromotion } from '../../domain/billing/deletePromotion';
import { listPromotions } from '../../domain/billing/listPromotions';
import { lookupPromotion } from '../../domain/billing/promotionLookup';
import { promotionState } from '../../domain/billing/promotionRules';
import { putPromotion } from '../../domain/billing/putPromotion';
import { PromoCodeParams, PromoLookupQuery, PutPromotionBody } from './dtos';
import { IdParams, PageQuery } from '../http/dtos';
import { PromoLookupView, PromotionList, PromotionView } from './views';
import { deletePromoId, getPromoCode, putPromoId } from './promotions.docs';

/** /api/promo: promotion codes, looked up by members, managed by administrators. */
export function promotionRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: promotions');

  r.get(
    '/api/promo/:code',
    {
      summary: 'Look up a promotion code',
      description: getPromoCode,
      access: 'user',
      params: PromoCodeParams,
      query: PromoLookupQuery,
      response: PromoLookupView,
      rateLimits: [{ name: 'promo-lookup', limit: 30, by: (req) => req.auth?.userId }],
    },
    async ({ ctx, params, query }) => {
      const promo = await lookupPromotion(ctx.em, params.code);
      return PromoLookupView.from(promo, promotionState(promo, query.tier));
    },
  );

  r.get(
    '/api/promo',
    { summary: 'Administrators: list promotions', access: 'admin', query: PageQuery, response: PromotionList },
    async ({ ctx, query }) => {
      const page = await listPromotions(ctx.em, { limit: query.limit, cursor: query.cursor });
      return mapPage(page, PromotionView.from);
    },
  );

  r.put(
    '/api/promo/:id',
    {
      summary: 'Administrators: create or replace a promotion',
      description: putPromoId,
      access: 'admin',
      params: IdParams,
      body: PutPromotionBody,
      response: PromotionView,
      alsoAnswers: { 201: 'Created (the id was unknown)' },
      errors: { 409: '`promotion_code_taken`' },
    },
    async ({ ctx, params, body }) => {
      const { expiresAt, ...rest } = body;
      const result = await putPromotion(ctx, params.id, { ...rest, expiresAt: expiresAt ? new Date(expiresAt) : null });
      const view = PromotionView.from(result.promotion);
      return result.created ? created(view, `/api/promo/${params.id}`) : view;
    },
  );

  r.delete(
    '/api/promo/:id',
    {
      summary: 'Administrators: delete a promotion',
      description: deletePromoId,
      access: 'admin',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deletePromotion(ctx, params.id);
      return noContent();
    },
  );
}
