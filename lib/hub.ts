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

  /** A redirect (never followed) or a 4xx other than 408/429 will not get better by retrying. */
  get permanent(): boolean {
    return (
      (this.status >= 300 && this.status < 400) ||
      (this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429)
    );
  }
}

/**
 * Client of the real-time hub's notification channel: each module POSTs JSON to `<HUB_URL>/<module>/notify`,
 * authenticated by the module's shared secret, sent two ways: `X-Webhook-Secret` (the spec's header) and
 * `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>` for hubs that verify integrity without
 * the secret travelling. Best-effort by design: callers retry briefly then drop. A redirect is never followed:
 * it would send the body and the secret to whatever host its Location names; it fails the notification for
 * good (a permanent HubError naming the status and the Location) and the hub's address must be fixed.
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
        headers: {
          'Content-Type': 'application/json',
          'X-Webhook-Secret': secret,
          'X-Webhook-Signature': `sha256=${signature}`,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new HubError(0, `hub unreachable: ${(err as Error).message}`);
    }
    // Drain the body so the keep-alive connection is reused.
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      throw new HubError(
        res.status,
        `hub answered ${res.status}, a redirect${location ? ` to ${location.slice(0, 200)}` : ''}: not followed (the secret is only sent to HUB_URL; fix HUB_URL)`,
      );
    }
    if (!res.ok) throw new HubError(res.status, `hub answered ${res.status}`);
  }
}
