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

/**
 * A local stand-in for the part of Stripe's REST API billing uses (customers, coupons, checkout sessions,
 * billing portal sessions, subscriptions retrieve/update): form-encoded requests in, JSON out, every call
 * recorded, Idempotency-Key honoured like Stripe does (same key, same answer). Point STRIPE_API_URL at `url`.
 */
export class FakeStripe {
  readonly calls: StripeCall[] = [];
  readonly subscriptions = new Map<string, Json>();
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
    return this.calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
  }

  private id(prefix: string): string {
    return `${prefix}_test${String(++this.seq).padStart(6, '0')}`;
  }

  /** A subscription as Stripe would hold it after a checkout (prices = its items). */
  createSubscription(props: { customer: string; prices: string[]; status?: string; metadata?: Record<string, string>; cancelAtPeriodEnd?: boolean }): Json {
    const now = Math.floor(Date.now() / 1000);
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

  private item(price: string, now = Math.floor(Date.now() / 1000)): Json {
    return { id: this.id('si'), object: 'subscription_item', price: { id: price, object: 'price' }, quantity: 1, current_period_start: now, current_period_end: now + PERIOD_SECONDS };
  }

  private async handle(req: IncomingMessage): Promise<[number, Json]> {
    const path = (req.url ?? '').split('?')[0];
    const body = decodeForm(await readBody(req));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    this.calls.push({ method: req.method ?? '', path, body, idempotencyKey });
    if (req.method === 'POST' && idempotencyKey && this.idempotent.has(idempotencyKey)) return [200, this.idempotent.get(idempotencyKey)!];
    const answer = this.route(req.method ?? '', path, body);
    if (req.method === 'POST' && idempotencyKey && answer[0] === 200) this.idempotent.set(idempotencyKey, answer[1]);
    return answer;
  }

  private route(method: string, path: string, body: Json): [number, Json] {
    const meta = (body.metadata as Record<string, string> | undefined) ?? {};
    if (method === 'POST' && path === '/v1/customers') return [200, { id: this.id('cus'), object: 'customer', name: body.name ?? null, email: body.email ?? null, metadata: meta }];
    if (method === 'POST' && path === '/v1/coupons') {
      return [200, { id: this.id('coupon'), object: 'coupon', percent_off: body.percent_off ? Number(body.percent_off) : null, amount_off: body.amount_off ? Number(body.amount_off) : null, currency: body.currency ?? null, duration: body.duration, name: body.name ?? null, metadata: meta }];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = this.id('cs');
      const embedded = body.ui_mode === 'embedded_page';
      return [200, { id, object: 'checkout.session', mode: body.mode, ui_mode: body.ui_mode ?? 'hosted_page', url: embedded ? null : `https://checkout.stripe.test/c/pay/${id}`, client_secret: embedded ? `${id}_secret_fake` : null, customer: body.customer ?? null, client_reference_id: body.client_reference_id ?? null, metadata: meta, subscription: null }];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = this.id('bps');
      return [200, { id, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url ?? null, url: `https://billing.stripe.test/p/session/${id}` }];
    }
    const subscription = /^\/v1\/subscriptions\/([\w-]+)$/.exec(path);
    if (subscription) {
      const sub = this.subscriptions.get(subscription[1]);
      if (!sub) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${subscription[1]}'` } }];
      if (method === 'GET') return [200, sub];
      if (method === 'POST') return [200, this.update(sub, body)];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }];
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
export function signedDelivery(event: Json | string, secret: string, timestamp?: number): { body: string; signature: string } {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(timestamp ? { timestamp } : {}) }) };
}
