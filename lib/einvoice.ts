/**
 * Adapters to e-invoicing platforms (a French PDP, or the PPF through one): `EInvoicePlatform` is what
 * submission needs; `HttpEInvoicePlatform` speaks a small JSON-over-HTTPS protocol (below) that a partner
 * platform or a gateway in front of one implements. Configured by EINVOICE_PLATFORM_URL (unset: submission
 * answers 503 einvoice_platform_not_configured), EINVOICE_PLATFORM_TOKEN and EINVOICE_PLATFORM_NAME.
 *
 *   POST {url}/invoices                      Authorization: Bearer {token}, Idempotency-Key: {key}
 *     { number, typeCode: "380" | "381", issueDate, currency, grandTotal: "123.45",
 *       seller: { name, vatNumber, legalId }, buyer: { name, vatNumber, legalId },
 *       syntax: "factur-x" | "cii" | "ubl", mimeType, fileName, document: base64 of the document }
 *     the syntax the platform asks for (EINVOICE_PLATFORM_FORMAT): the Factur-X PDF (application/pdf), the CII
 *     XML or the UBL 2.1 XML (application/xml)
 *     -> 2xx { id, status? }   the same Idempotency-Key answers the same id (never a second document)
 *   GET {url}/invoices/{id}/lifecycle
 *     -> 2xx { events: [{ id, status, at, reason? }] }   statuses: submitted, rejected, delivered, received,
 *                                                         approved, disputed, refused, paid
 *   POST {url}/statuses                      Authorization: Bearer {token}, Idempotency-Key: {message id}
 *     { documentId: platform id or null, invoice: { number, issueDate, sellerSiren }, status, code, reason, at }
 *     -> 2xx { id }   a lifecycle status the suite emits (CDAR codes 205 approved, 210 refused,
 *                     211 payment sent, 212 collected); the same key answers the same id
 *   POST {url}/ereports                      Authorization: Bearer {token}, Idempotency-Key: {report id}
 *     { id, kind: "transactions" | "payments", period: { start, end }, vatRegime, sequence, rectifying,
 *       seller: { siren, vatNumber, name }, currency, lines: [...], totals: { taxableCents, vatCents, itemCount } }
 *     -> 2xx { id }   an e-report of a closed period (lines as in entities/core/ereport.ts, amounts in cents);
 *                     sequence > 0 rectifies the period's earlier ones; the same key answers the same id
 * Network errors, 5xx, 408 and 429 are worth retrying; other 4xx are final (the platform rejected the document).
 */

export interface EInvoiceParty {
  name: string;
  vatNumber: string | null;
  legalId: string | null;
}

export interface EInvoiceDocument {
  number: string;
  typeCode: '380' | '381';
  issueDate: string;
  currency: string;
  grandTotal: string;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  fileName: string;
  syntax: EInvoiceSyntax;
  mimeType: 'application/pdf' | 'application/xml';
  /** The document's bytes: the Factur-X PDF (the CII XML embedded), the CII XML or the UBL XML. */
  document: Uint8Array;
}

/** The syntaxes a platform may ask documents in. */
export const einvoiceSyntaxes = ['factur-x', 'cii', 'ubl'] as const;
export type EInvoiceSyntax = (typeof einvoiceSyntaxes)[number];

export interface PlatformEvent {
  id: string;
  status: string;
  at: Date;
  reason: string | null;
}

/** A lifecycle status the suite reports to the platform. */
export interface StatusReport {
  /** The platform's id of the document, when it came or went through the platform. */
  documentId: string | null;
  invoice: { number: string; issueDate: string; sellerSiren: string | null };
  status: string;
  code: string;
  reason: string | null;
  at: Date;
}

/** An e-report of a closed period, as the platform receives it. */
export interface EReportMessage {
  id: string;
  kind: 'transactions' | 'payments';
  period: { start: string; end: string };
  vatRegime: string;
  sequence: number;
  rectifying: boolean;
  seller: { siren: string | null; vatNumber: string | null; name: string };
  currency: string;
  lines: object[];
  totals: { taxableCents: number; vatCents: number; itemCount: number };
}

export interface EInvoicePlatform {
  /** Transmits an e-report; the same key never transmits it twice. */
  sendEReport(report: EReportMessage, idempotencyKey: string): Promise<{ id: string }>;
  /** Reports a lifecycle status; the same key never reports it twice. */
  sendStatus(report: StatusReport, idempotencyKey: string): Promise<{ id: string }>;
  readonly name: string;
  /** Hands the document over; the same key never makes a second document on the platform. */
  submit(doc: EInvoiceDocument, idempotencyKey: string): Promise<{ id: string; status: string | null }>;
  /** The lifecycle events the platform recorded for a document, in any order. */
  lifecycle(platformId: string): Promise<PlatformEvent[]>;
}

export class PlatformError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }

  /** The platform refused the document itself (a 4xx other than 408/429): retrying will not help. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

export class HttpEInvoicePlatform implements EInvoicePlatform {
  private readonly baseUrl: string;

  constructor(
    readonly name: string,
    baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async submit(doc: EInvoiceDocument, idempotencyKey: string): Promise<{ id: string; status: string | null }> {
    const body = await this.call(
      'POST',
      '/invoices',
      { ...doc, document: Buffer.from(doc.document).toString('base64') },
      { 'Idempotency-Key': idempotencyKey },
    );
    const { id, status } = body as { id?: unknown; status?: unknown };
    if (typeof id !== 'string' || !id)
      throw new PlatformError(502, 'the platform accepted the document without giving its id');
    return { id, status: typeof status === 'string' ? status : null };
  }

  async sendStatus(report: StatusReport, idempotencyKey: string): Promise<{ id: string }> {
    const body = (await this.call(
      'POST',
      '/statuses',
      { ...report, at: report.at.toISOString() },
      { 'Idempotency-Key': idempotencyKey },
    )) as { id?: unknown };
    if (typeof body.id !== 'string' || !body.id)
      throw new PlatformError(502, 'the platform accepted the status without giving its id');
    return { id: body.id };
  }

  async sendEReport(report: EReportMessage, idempotencyKey: string): Promise<{ id: string }> {
    const body = (await this.call('POST', '/ereports', report, { 'Idempotency-Key': idempotencyKey })) as {
      id?: unknown;
    };
    if (typeof body.id !== 'string' || !body.id)
      throw new PlatformError(502, 'the platform accepted the e-report without giving its id');
    return { id: body.id };
  }

  async lifecycle(platformId: string): Promise<PlatformEvent[]> {
    const body = (await this.call('GET', `/invoices/${encodeURIComponent(platformId)}/lifecycle`)) as {
      events?: unknown;
    };
    if (!Array.isArray(body.events)) throw new PlatformError(502, 'the platform answered a lifecycle without events');
    return (body.events as Record<string, unknown>[])
      .filter(
        (e) =>
          typeof e?.id === 'string' && typeof e.status === 'string' && !Number.isNaN(new Date(String(e.at)).getTime()),
      )
      .map((e) => ({
        id: String(e.id),
        status: String(e.status),
        at: new Date(String(e.at)),
        reason: typeof e.reason === 'string' ? e.reason : null,
      }));
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        body: payload ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new PlatformError(0, `e-invoicing platform unreachable: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new PlatformError(res.status, `e-invoicing platform answered ${res.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new PlatformError(502, 'e-invoicing platform answered something other than JSON');
    }
  }
}

/** The configured platform, or null when none is. */
export function einvoicePlatform(config: {
  EINVOICE_PLATFORM_URL: string;
  EINVOICE_PLATFORM_TOKEN: string;
  EINVOICE_PLATFORM_NAME: string;
  EINVOICE_PLATFORM_TIMEOUT_MS: number;
}): EInvoicePlatform | null {
  if (!config.EINVOICE_PLATFORM_URL) return null;
  return new HttpEInvoicePlatform(
    config.EINVOICE_PLATFORM_NAME,
    config.EINVOICE_PLATFORM_URL,
    config.EINVOICE_PLATFORM_TOKEN,
    config.EINVOICE_PLATFORM_TIMEOUT_MS,
  );
}
