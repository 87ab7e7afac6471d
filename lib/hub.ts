import { createHmac } from 'node:crypto';

/** The hub answered with a non-2xx status (or not at all: `status` 0). */
export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HubError';
  }

  /** A 4xx other than 408/429 will not get better by retrying. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

/**
 * Client of the real-time hub's notification channel: each module POSTs JSON to `<HUB_URL>/<module>/notify`,
 * authenticated by the module's shared secret, sent two ways: `X-Webhook-Secret` (the spec's header) and
 * `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>` for hubs that verify integrity without
 * the secret travelling. Best-effort by design: callers retry briefly then drop.
 */
export class HubClient {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs = 3000,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async notify(module: string, secret: string, payload: object): Promise<void> {
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/${module}/notify`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Webhook-Secret': secret, 'X-Webhook-Signature': `sha256=${signature}` },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new HubError(0, `hub unreachable: ${(err as Error).message}`);
    }
    // Drain the body so the keep-alive connection is reused.
    await res.arrayBuffer().catch(() => undefined);
    if (!res.ok) throw new HubError(res.status, `hub answered ${res.status}`);
  }
}
