import { createHmac } from 'node:crypto';
import type { Express, RequestHandler } from 'express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Services } from '../../domain/services';
import { User } from '../../entities/identity/user';
import { forbidden } from '../../lib/errors';
import type { Authenticator } from '../http/auth';
import { secretsMatch } from '../http/guards';

export const QUEUE_BOARD_PATH = '/admin/queues';
const COOKIE = 'queue_board';
const COOKIE_TTL_SECONDS = 3600;

/**
 * The Bull dashboard, for platform administrators only. A browser cannot send a Bearer header while it
 * loads the dashboard's pages and assets, so the first visit carries the access token (header or
 * ?token=) and receives a short-lived HttpOnly, SameSite=Strict cookie scoped to this path, signed by the app.
 */
export function mountQueueBoard(app: Express, services: Services, auth: Authenticator): void {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues: services.queues.list().map((q) => new BullMQAdapter(q)), serverAdapter: adapter, options: { uiConfig: { boardTitle: 'Platform Suite jobs' } } });
  const secret = services.deriveSecret('queue-board-cookie');
  const sign = (value: string) => createHmac('sha256', secret).update(value).digest('base64url');

  const gate: RequestHandler = async (req, res, next) => {
    const cookie = /(?:^|;\s*)queue_board=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (cookie) {
      const [userId, exp, sig] = decodeURIComponent(cookie).split('.');
      if (sig && secretsMatch(sig, sign(`${userId}.${exp}`)) && Number(exp) * 1000 > Date.now()) return next();
    }
    const claims = await auth.verify(req, { ws: true });
    const user = await services.orm.em.fork().findOne(User, { id: claims.userId }, { fields: ['isPlatformAdmin', 'disabledAt'] });
    if (!user?.isPlatformAdmin || user.disabledAt) throw forbidden('platform_admin_required', 'Only platform administrators may open the queue dashboard');
    const exp = Math.floor(Date.now() / 1000) + COOKIE_TTL_SECONDS;
    const value = `${claims.userId}.${exp}`;
    res.cookie(COOKIE, `${value}.${sign(value)}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure: services.config.production,
      path: QUEUE_BOARD_PATH,
      maxAge: COOKIE_TTL_SECONDS * 1000,
    });
    if (req.query.token) return res.redirect(303, req.originalUrl.replace(/([?&])token=[^&]*&?/, '$1').replace(/[?&]$/, ''));
    next();
  };

  app.use(QUEUE_BOARD_PATH, gate, adapter.getRouter());
}
