import type { Response } from 'express';
import { readerKey } from '../../domain/knowledge/analytics';
import { recordSearchMiss } from '../../domain/knowledge/recordSearchMiss';
import { recordView } from '../../domain/knowledge/recordView';
import { getPublicArticle } from '../../domain/knowledge/getPublicArticle';
import { listPublicArticles } from '../../domain/knowledge/listPublicArticles';
import { listPublicSpaces } from '../../domain/knowledge/listPublicSpaces';
import { findPublicSpace, readPublicSpace } from '../../domain/knowledge/publicSpace';
import { searchArticles } from '../../domain/knowledge/searchArticles';
import { answerSubscriberLink } from '../../domain/knowledge/answerSubscriberLink';
import { subscribe } from '../../domain/knowledge/subscribe';
import { bodyField, type RateLimitRule } from '../http/rateLimit';
import { accepted } from '../http/routes';
import type { ModuleMount } from '../http/mount';
import {
  KbArticleSlugParams,
  KbPublicArticlePageView,
  KbPublicArticleView,
  KbPublicPageQuery,
  KbPublicSearchHitView,
  KbPublicSearchQuery,
  KbPublicSearchView,
  KbPublicSpacePageView,
  KbPublicSpacesQuery,
  KbPublicSpaceView,
  KbSlugParams,
  KbSubscribeBody,
  KbSubscriptionView,
  KbTokenBody,
} from './publicViews';
import * as docs from './public.docs';

const P = '/api/knowledge/public';
/** CDN-friendly: a minute fresh, five more minutes served stale while revalidating; the router adds a weak ETag to these reads (they declare 304; the article read sets its own) and answers 304 to If-None-Match. */
const CACHE = 'public, max-age=60, stale-while-revalidate=300';
const cacheable = (res: Response) => res.set('Cache-Control', CACHE);
const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

/**
 * The anonymous public surface: directory, spaces by slug, their published articles (HTML rendered and
 * sanitised, beside the source), search, blog subscriptions. Never an organisation id, an internal space or an
 * unpublished article; nothing of an organisation that is suspended or not entitled to knowledge (404, as the
 * storefront); reads carry ETag and Cache-Control; every route is rate limited per client IP.
 */
export function publicRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Knowledge public');
  const readLimits: RateLimitRule[] = [{ name: 'kb-public', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const writeLimits: RateLimitRule[] = [
    { name: 'kb-public-write', limit: Math.max(5, Math.floor(services.config.RATE_LIMIT_ANON_PER_MINUTE / 10)) },
  ];
  const base = {
    access: 'public' as const,
    rateLimits: readLimits,
    alsoAnswers: { 304: 'Not modified (If-None-Match matched the ETag)' },
  };
  const writes = { access: 'public' as const, rateLimits: writeLimits };
  // Subscriptions asked for (refused ones cost nothing) per address, recipient and blog an hour: each mails a
  // confirmation to an address the stranger names.
  const {
    RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR,
    RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR,
    RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR,
  } = services.config;
  const asked = { windowSeconds: 3600, countSuccessesOnly: true };
  const subscribeLimits: RateLimitRule[] = [
    ...writeLimits,
    { name: 'kb-subscribe-ip', limit: RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR, ...asked },
    {
      name: 'kb-subscribe-email',
      limit: RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR,
      by: bodyField('email'),
      per: 'subscribed address',
      ...asked,
    },
    {
      name: 'kb-subscribe-space',
      limit: RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR,
      by: (req) => String(req.params.slug),
      per: 'blog',
      ...asked,
    },
  ];

  r.get(
    `${P}/spaces`,
    {
      ...base,
      summary: 'Directory of public spaces',
      description: docs.directoryPublicSpaces,
      query: KbPublicSpacesQuery,
      response: KbPublicSpacePageView,
    },
    async ({ res, query }) => {
      cacheable(res);
      return KbPublicSpacePageView.from(await listPublicSpaces(services, query));
    },
  );

  r.get(
    `${P}/spaces/:slug`,
    {
      ...base,
      summary: 'A public space',
      description: docs.publicSpace,
      params: KbSlugParams,
      response: KbPublicSpaceView,
    },
    async ({ res, params }) => {
      cacheable(res);
      return KbPublicSpaceView.from(await readPublicSpace(services, params.slug));
    },
  );

  r.get(
    `${P}/spaces/:slug/articles`,
    {
      ...base,
      summary: 'Published articles of a public space',
      description: 'Knowledge bases in reading order, blogs newest first; without content. Pages by number.',
      params: KbSlugParams,
      query: KbPublicPageQuery,
      response: KbPublicArticlePageView,
    },
    async ({ res, params, query }) => {
      const space = await readPublicSpace(services, params.slug);
      cacheable(res);
      return KbPublicArticlePageView.from(await listPublicArticles(services, space, query), query.page);
    },
  );

  r.get(
    `${P}/spaces/:slug/articles/:articleSlug`,
    {
      ...base,
      summary: 'A published article',
      description: docs.publishedArticle,
      params: KbArticleSlugParams,
      response: KbPublicArticleView,
    },
    async ({ req, res, params }) => {
      const { space, article, html } = await getPublicArticle(services, params.slug, params.articleSlug);
      recordView(services, {
        tenantId: space.tenantId,
        spaceId: space.id,
        articleId: article.id,
        reader: readerKey(null, req.ip, req.get('user-agent')),
      });
      cacheable(res);
      // Every change of what this answer shows moves version or updatedAt: a revalidation needs no body built or hashed.
      res.set('ETag', `W/"${article.id}-${article.version}-${article.updatedAt.getTime().toString(36)}"`);
      if (req.fresh) return void res.status(304).end();
      return KbPublicArticleView.fromRendered(article, html);
    },
  );

  r.get(
    `${P}/spaces/:slug/search`,
    {
      ...base,
      summary: 'Search a public space',
      description: docs.searchPublicSpace,
      params: KbSlugParams,
      query: KbPublicSearchQuery,
      response: KbPublicSearchView,
    },
    async ({ res, params, query }) => {
      const space = await readPublicSpace(services, params.slug);
      const items = await searchArticles(services, {
        q: query.q,
        limit: query.limit,
        tenantId: space.tenantId,
        spaceId: space.id,
        publishedOnly: true,
      });
      if (!items.length) await recordSearchMiss(services, space.tenantId, space.id, query.q);
      cacheable(res);
      return { query: query.q, items: items.map(KbPublicSearchHitView.from) };
    },
  );

  r.post(
    `${P}/spaces/:slug/subscribe`,
    {
      ...writes,
      rateLimits: subscribeLimits,
      summary: 'Subscribe to a blog',
      description: docs.subscribeBlog,
      params: KbSlugParams,
      body: KbSubscribeBody,
      response: KbSubscriptionView,
      status: 202,
    },
    async ({ res, params, body }) => {
      await subscribe(services, await findPublicSpace(services, services.orm.em.fork(), params.slug), body.email);
      noStore(res);
      return accepted({ status: 'pending' });
    },
  );

  for (const purpose of ['confirm', 'unsubscribe'] as const) {
    const summary = purpose === 'confirm' ? 'Confirm a blog subscription' : 'Unsubscribe from a blog';
    const description =
      purpose === 'confirm'
        ? 'With the token of the confirmation mail. A bad token is a 404.'
        : 'With the signed token every mail carries (no sign-in). A bad token is a 404. Idempotent.';
    r.post(
      `${P}/subscribers/${purpose}`,
      {
        ...writes,
        summary,
        description: `${description} (Body { token }.)`,
        body: KbTokenBody,
        response: KbSubscriptionView,
        errors: { 404: 'Unknown or forged token' },
      },
      async ({ res, body }) => {
        noStore(res);
        return { status: (await answerSubscriberLink(services, body.token, purpose)).status };
      },
    );
    r.get(
      `${P}/subscribers/${purpose}`,
      {
        ...writes,
        summary: `${summary} (mail link)`,
        description: `${description} The link of the mail (?token=).`,
        query: KbTokenBody,
        response: KbSubscriptionView,
        errors: { 404: 'Unknown or forged token' },
      },
      async ({ res, query }) => {
        noStore(res);
        return { status: (await answerSubscriberLink(services, query.token, purpose)).status };
      },
    );
  }
}
