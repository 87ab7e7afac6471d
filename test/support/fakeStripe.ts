import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import Stripe from 'stripe';

/** A request the fake received: method, path, decoded form body and idempotency key. */
export interface StripeCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey: string | null;
}

type Json = Record<string, unknown>;

/** Decodes Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays. */
export function decodeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Json | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else container[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
      node = container[part] as Json;
    });
  }
  return root;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const PERIOD_SECONDS = 30 * 86_400;

const missing = (kind: string, id: string): [number, Json] => [
  404,
  { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'` } },
];

/**
 * A local stand-in for the part of Stripe's REST API billing uses (customers, coupons, checkout sessions
 * create/retrieve/expire, of mode subscription and payment, billing portal sessions, subscriptions retrieve/update/cancel): form-encoded requests
 * in (query string for GET and DELETE), JSON out, every call recorded, Idempotency-Key honoured like Stripe
 * does (same key, same answer). Point STRIPE_API_URL at `url`. `completeCheckout` is the customer paying.
 */
export class FakeStripe {
  readonly calls: StripeCall[] = [];
  readonly subscriptions = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly coupons = new Map<string, Json>();
  /** What a checkout session was created with (not part of the session object Stripe answers). */
  private readonly checkoutInputs = new Map<
    string,
    { prices: string[]; coupon?: string; metadata: Record<string, string> }
  >();
  private readonly idempotent = new Map<string, Json>();
  private seq = 0;
  private server!: Server;
  url = '';

  static async start(): Promise<FakeStripe> {
    const fake = new FakeStripe();
    fake.server = createServer((req, res) => {
      void fake.handle(req).then(([status, body]) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${fake.seq}` });
        res.end(JSON.stringify(body));
      });
    });
    fake.server.listen(0, '127.0.0.1');
    await once(fake.server, 'listening');
    fake.url = `http://127.0.0.1:${(fake.server.address() as { port: number }).port}`;
    return fake;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Calls to one endpoint, e.g. callsTo('POST', '/v1/checkout/sessions'). */
  callsTo(method: string, path: string | RegExp): StripeCall[] {
    return this.calls.filter(
      (c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)),
    );
  }

  private id(prefix: string): string {
    return `${prefix}_test${String(++this.seq).padStart(6, '0')}`;
  }

  /** A subscription as Stripe would hold it after a checkout (prices = its items). */
  createSubscription(props: {
    customer: string;
    prices: string[];
    status?: string;
    metadata?: Record<string, string>;
    cancelAtPeriodEnd?: boolean;
    created?: number;
  }): Json {
    const now = props.created ?? Math.floor(Date.now() / 1000);
    const sub: Json = {
      id: this.id('sub'),
      object: 'subscription',
      customer: props.customer,
      status: props.status ?? 'active',
      cancel_at_period_end: props.cancelAtPeriodEnd ?? false,
      created: now,
      metadata: props.metadata ?? {},
      items: { object: 'list', data: props.prices.map((price) => this.item(price, now)) },
    };
    this.subscriptions.set(sub.id as string, sub);
    return sub;
  }

  /**
   * The customer pays an open checkout session: its subscription is created (prices, subscription_data metadata)
   * and the session completes; answers the session as the checkout.session.completed event carries it. Throws,
   * like Stripe refuses the payment, for a session that is not open or a coupon used up or past redeem_by.
   */
  completeCheckout(sessionId: string): Json {
    const session = this.sessions.get(sessionId);
    if (session?.status !== 'open')
      throw new Error(`checkout session ${sessionId} is ${String(session?.status ?? 'unknown')}, it cannot be paid`);
    const input = this.checkoutInputs.get(sessionId)!;
    const coupon = input.coupon ? this.coupons.get(input.coupon) : undefined;
    if (coupon) {
      const usedUp =
        coupon.max_redemptions != null && (coupon.times_redeemed as number) >= (coupon.max_redemptions as number);
      const expired = coupon.redeem_by != null && (coupon.redeem_by as number) <= Date.now() / 1000;
      if (usedUp || expired) throw new Error(`coupon ${String(coupon.id)} is no longer valid`);
      coupon.times_redeemed = (coupon.times_redeemed as number) + 1;
    }
    const sub = this.createSubscription({
      customer: session.customer as string,
      prices: input.prices,
      metadata: input.metadata,
    });
    return Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: sub.id });
  }

  /**
   * The customer pays an open checkout session of mode payment (an invoice's payment link) by card: it completes,
   * paid, with its payment intent; answers the session as the checkout.session.completed event carries it.
   */
  completePayment(sessionId: string): Json {
    const session = this.sessions.get(sessionId);
    if (session?.status !== 'open' || session.mode !== 'payment')
      throw new Error(`checkout session ${sessionId} cannot be paid`);
    return Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: this.id('pi') });
  }

  private item(price: string, now = Math.floor(Date.now() / 1000)): Json {
    return {
      id: this.id('si'),
      object: 'subscription_item',
      price: { id: price, object: 'price' },
      quantity: 1,
      current_period_start: now,
      current_period_end: now + PERIOD_SECONDS,
    };
  }

  private async handle(req: IncomingMessage): Promise<[number, Json]> {
    const [path, query = ''] = (req.url ?? '').split('?');
    const body = decodeForm(req.method === 'GET' || req.method === 'DELETE' ? query : await readBody(req));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.calls.push({ method: req.method ?? '', path, body, idempotencyKey });
    if (req.method === 'POST' && idempotencyKey && this.idempotent.has(idempotencyKey))
      return [200, this.idempotent.get(idempotencyKey)!];
    const answer = this.route(req.method ?? '', path, body);
    if (req.method === 'POST' && idempotencyKey && answer[0] === 200) this.idempotent.set(idempotencyKey, answer[1]);
    return answer;
  }

  private route(method: string, path: string, body: Json): [number, Json] {
    const meta = (body.metadata as Record<string, string> | undefined) ?? {};
    if (method === 'POST' && path === '/v1/customers')
      return [
        200,
        { id: this.id('cus'), object: 'customer', name: body.name ?? null, email: body.email ?? null, metadata: meta },
      ];
    const num = (value: unknown) => (value ? Number(value) : null);
    if (method === 'POST' && path === '/v1/coupons') {
      const coupon = {
        id: this.id('coupon'),
        object: 'coupon',
        percent_off: num(body.percent_off),
        amount_off: num(body.amount_off),
        currency: body.currency ?? null,
        duration: body.duration,
        name: body.name ?? null,
        max_redemptions: num(body.max_redemptions),
        redeem_by: num(body.redeem_by),
        times_redeemed: 0,
        valid: true,
        metadata: meta,
      };
      this.coupons.set(coupon.id, coupon);
      return [200, coupon];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = this.id('cs');
      const embedded = body.ui_mode === 'embedded_page';
      const items = body.line_items as { price?: string; quantity?: string; price_data?: Json }[];
      const amountTotal = items.reduce(
        (sum, i) => sum + Number(i.price_data?.unit_amount ?? 0) * Number(i.quantity ?? 1),
        0,
      );
      const currency = (items[0]?.price_data?.currency as string | undefined) ?? null;
      const session = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        ui_mode: body.ui_mode ?? 'hosted_page',
        url: embedded ? null : `https://checkout.stripe.test/c/pay/${id}`,
        client_secret: embedded ? `${id}_secret_fake` : null,
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        metadata: meta,
        subscription: null,
        amount_total: body.mode === 'payment' ? amountTotal : null,
        currency,
        customer_email: body.customer_email ?? null,
        payment_intent: null,
        success_url: body.success_url ?? null,
        cancel_url: body.cancel_url ?? null,
        expires_at: Math.floor(Date.now() / 1000) + 86_400,
      };
      this.sessions.set(id, session);
      const data = body.subscription_data as { metadata?: Record<string, string> } | undefined;
      const coupon = (body.discounts as { coupon?: string }[] | undefined)?.[0]?.coupon;
      this.checkoutInputs.set(id, {
        prices: items.flatMap((i) => (i.price ? [i.price] : [])),
        coupon,
        metadata: data?.metadata ?? {},
      });
      return [200, session];
    }
    const checkout = /^\/v1\/checkout\/sessions\/([\w-]+)(\/expire)?$/.exec(path);
    if (checkout) {
      const session = this.sessions.get(checkout[1]);
      if (!session) return missing('checkout.session', checkout[1]);
      if (method === 'GET' && !checkout[2]) return [200, session];
      if (method === 'POST' && checkout[2]) {
        if (session.status !== 'open')
          return [
            400,
            {
              error: {
                type: 'invalid_request_error',
                message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
              },
            },
          ];
        return [200, Object.assign(session, { status: 'expired' })];
      }
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = this.id('bps');
      return [
        200,
        {
          id,
          object: 'billing_portal.session',
          customer: body.customer,
          return_url: body.return_url ?? null,
          url: `https://billing.stripe.test/p/session/${id}`,
        },
      ];
    }
    const subscription = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    if (subscription) {
      const sub = this.subscriptions.get(subscription[1]);
      if (!sub) return missing('subscription', subscription[1]);
      if (method === 'GET') return [200, sub];
      if (method === 'POST') return [200, this.update(sub, body)];
      // Cancelling a cancelled subscription: Stripe answers as if it did not exist.
      if (method === 'DELETE' && sub.status === 'canceled') return missing('subscription', subscription[1]);
      if (method === 'DELETE')
        return [200, Object.assign(sub, { status: 'canceled', canceled_at: Math.floor(Date.now() / 1000) })];
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }

  private update(sub: Json, body: Json): Json {
    const items = sub.items as { data: Json[] };
    for (const change of (body.items as Json[] | undefined) ?? []) {
      const existing = items.data.find((i) => i.id === change.id);
      if (existing && change.deleted === 'true') items.data = items.data.filter((i) => i !== existing);
      else if (existing && change.price) existing.price = { id: change.price, object: 'price' };
      else if (!existing && change.price) items.data.push(this.item(change.price as string));
    }
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    if (body.metadata) sub.metadata = { ...(sub.metadata as Json), ...(body.metadata as Json) };
    return sub;
  }
}

let eventSeq = 0;

/** A Stripe event envelope around `object`, as Stripe delivers it. */
export function stripeEvent(type: string, object: unknown, options: { id?: string; created?: number } = {}): Json {
  return {
    id: options.id ?? `evt_test${Date.now().toString(36)}${++eventSeq}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The body and Stripe-Signature header of a delivery (an event, or any raw body), signed with the SDK's own algorithm. */
export function signedDelivery(
  event: Json | string,
  secret: string,
  timestamp?: number,
): { body: string; signature: string } {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return {
    body,
    signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) }),
  };
}
