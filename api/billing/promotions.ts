import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { created, noContent } from '../http/routes';
import { deletePromotion, listPromotions, lookupPromotion, promotionState, putPromotion } from '../../domain/billing/promotions';
import { PromoCodeParams, PromoLookupQuery, PutPromotionBody } from './dtos';
import { IdParams, PageQuery } from '../http/dtos';
import { PromoLookupView, PromotionList, PromotionView } from './views';

/** /api/promo: promotion codes, looked up by members, managed by administrators. */
export function promotionRoutes({ routes }: ModuleMount): void {
  const r = routes('Billing: promotions');
  // The spec names GET /api/promo/{code} and PUT, DELETE /api/promo/{id}: one path template with two names
  // (linters report the identical paths; bin/lint-openapi.ts lists it as the spec's own).
  const sharedTemplate = ' This path is shared: GET takes a promotion code, PUT and DELETE a promotion id (as the spec names them).';

  r.get(
    '/api/promo/:code',
    {
      summary: 'Look up a promotion code',
      description:
        'Case-insensitive. Answers whether the code can be used now (and for `?tier=`), with its discount; `reason` says why not (expired, exhausted, not_applicable). Unknown and deactivated codes are both 404, and lookups are rate-limited per user, so codes cannot be probed.' + sharedTemplate,
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

  r.get('/api/promo', { summary: 'Administrators: list promotions', access: 'admin', query: PageQuery, response: PromotionList }, async ({ ctx, query }) => {
    const page = await listPromotions(ctx.em, { limit: query.limit, cursor: query.cursor });
    return mapPage(page, PromotionView.from);
  });

  r.put(
    '/api/promo/:id',
    {
      summary: 'Administrators: create or replace a promotion',
      description:
        'Upsert: the body is the whole promotion. An unknown id creates it (201 with Location), a known id replaces it (200); `redemptions` is counted by the system and kept. Exactly one of `percentOff` or `amountOffCents` (+ `currency`). Codes are unique case-insensitively (409 `promotion_code_taken`). The discount applies to the first invoice of the checkout that uses it. `maxRedemptions` and `expiresAt` hold when a checkout completes, not only when it opens: the Stripe coupon carries them, so Stripe refuses to complete a checkout once the code is used up or expired (editing them, or the discount, makes the next checkout use a new coupon); a completion past them that still arrives (a checkout opened with an older coupon) keeps its subscription but is not counted.' + sharedTemplate,
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

  r.delete('/api/promo/:id', { summary: 'Administrators: delete a promotion', description: sharedTemplate.trim(), access: 'admin', params: IdParams, status: 204 }, async ({ ctx, params }) => {
    await deletePromotion(ctx, params.id);
    return noContent();
  });
}
