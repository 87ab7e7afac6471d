import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cleanEnv, num, port, str, url, EnvMissingError } from 'envalid';

/**
 * Every environment variable the suite reads, parsed and validated once at start (envalid).
 * `devDefault` values apply outside production only: with NODE_ENV=production a missing secret stops the
 * process with a message naming the variable. The README's configuration table mirrors this list.
 */
export const configSpec = {
  NODE_ENV: str({
    choices: ['development', 'test', 'production'],
    default: 'development',
    desc: 'production makes secrets mandatory and cookies secure',
  }),
  PORT: port({ default: 3000, desc: 'HTTP port of the web dyno' }),
  PUBLIC_URL: url({ desc: 'Public base URL, used in mailed links and storage addresses' }),
  APP_URL: str({ default: '', desc: 'Front-end base URL used in mailed links (defaults to PUBLIC_URL)' }),
  DATABASE_URL: url({
    devDefault: 'postgres://postgres@127.0.0.1:5432/platform',
    desc: 'PostgreSQL connection URL of the dynos (web, worker, clock): in production a role that reads and writes rows only (README, "Database roles")',
  }),
  MIGRATION_DATABASE_URL: str({
    default: '',
    desc: "Release phase and npm start's migration step: PostgreSQL connection of the role that owns the schema. Migrating grants DATABASE_URL's role row access only (select, insert, update, delete; tables created later included), so the web, worker and clock dynos cannot alter tables or disable triggers. Required in production, as another role than DATABASE_URL's; unset elsewhere: DATABASE_URL migrates (one role)",
  }),
  DATABASE_POOL_MAX: num({ default: 10, desc: 'Connections per process in the PostgreSQL pool' }),
  DATABASE_TIMEOUT_MS: num({
    default: 600,
    desc: 'Request path: how fast an outage is told. Bound of connecting to PostgreSQL; a statement or a wait for a pooled connection without news for half of it asks PostgreSQL (on a connection of its own, the other half to answer) whether it is still working on it; no answer: 503 dependency_unavailable',
  }),
  DATABASE_WAIT_TIMEOUT_MS: num({
    default: 10000,
    desc: 'Request path: how long a request may wait its turn while PostgreSQL answers: a statement, its row locks included (statement_timeout), and the wait for a pooled connection; past it 503 dependency_unavailable',
  }),
  DATABASE_JOB_TIMEOUT_MS: num({
    default: 30000,
    desc: 'Worker and clock dynos: bound of each PostgreSQL statement and of the wait for a pooled connection',
  }),
  REDIS_URL: url({
    devDefault: 'redis://127.0.0.1:6379',
    desc: 'Redis connection URL (queues, revocation list, caches, presence, rate limits)',
  }),
  REDIS_CLUSTER_NODES: str({
    default: '',
    desc: 'Redis Cluster seed nodes, comma-separated host:port (or redis[s]://user:password@host:port; credentials and TLS of the first apply to all): set, every Redis use (queues, revocation, caches, presence, rate limits, pub/sub) goes through the cluster and REDIS_URL is not used',
  }),
  REDIS_TIMEOUT_MS: num({
    default: 500,
    desc: 'Request path: a Redis command without an answer this long fails (503 dependency_unavailable) and the connection is renewed',
  }),
  REDIS_NAMESPACE: str({ default: 'ps', desc: 'Prefix of every Redis key, queue and channel of this deployment' }),
  JWT_SECRET: str({ desc: 'Shared HMAC secret of access tokens (>= 32 chars)' }),
  ACCESS_TOKEN_TTL_SECONDS: num({ default: 900, desc: 'Lifetime of access tokens (the expiresIn of login)' }),
  REFRESH_TOKEN_TTL_DAYS: num({ default: 30, desc: 'Lifetime of a session and its refresh tokens' }),
  INTERNAL_SECRET: str({ default: '', desc: 'X-Internal-Secret of machine-to-machine routes; unset refuses them all' }),
  HTTP_REQUEST_TIMEOUT_SECONDS: num({
    default: 30,
    desc: 'A request whose headers and body have not all arrived by then gets 408 (the router gives up at 30 s)',
  }),
  WEB_MAX_CONNECTIONS: num({
    default: 1000,
    desc: 'Sockets one web process holds at most (requests, keep-alive connections, WebSockets)',
  }),
  WS_MAX_SOCKETS_PER_PROCESS: num({
    default: 0,
    desc: 'WebSockets one web process holds at most, below WEB_MAX_CONNECTIONS so HTTP requests always find a connection (0: four fifths of it); beyond it an upgrade gets 503 socket_capacity_reached',
  }),
  WS_MAX_SOCKETS_PER_USER: num({
    default: 5,
    desc: 'WebSockets one user may hold at once, on every endpoint and dyno together (leases in Redis); beyond it an upgrade gets 429 too_many_sockets',
  }),
  WS_MAX_SOCKETS_PER_ADDRESS: num({
    default: 50,
    desc: 'WebSockets one client address (IPv6: its /56) may hold at once, whoever signs in, on every endpoint and dyno together; beyond it 429 too_many_sockets. Raise it for sites with more headsets behind one address',
  }),
  WS_SOCKET_LEASE_SECONDS: num({
    default: 60,
    desc: "How long a dyno that stopped (a crash) keeps its sockets counted in the WebSocket limits: each dyno renews its sockets' leases every third of it",
  }),
  CORS_ORIGINS: str({ default: '', desc: 'Comma-separated browser origins allowed by CORS' }),
  TRUST_PROXY: str({ default: 'loopback', desc: 'Express trust proxy setting (Heroku: 1)' }),
  LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
  METRICS_TOKEN: str({ default: '', desc: 'Bearer token required by /metrics when set' }),
  RATE_LIMIT_AUTH_PER_MINUTE: num({
    default: 10,
    desc: 'Register, forgot-password and resend-confirmation requests per IP and per account a minute; failed e-mail confirmations and password resets per IP (sign-in has the SIGNIN_ limits)',
  }),
  RATE_LIMIT_ANON_PER_MINUTE: num({
    default: 120,
    desc: 'Requests per IP on anonymous routes (sign-in attempts included, successful or not)',
  }),
  ACCOUNT_EXPORTS_PER_HOUR: num({
    default: 5,
    desc: 'Exports of their own data (GET /auth/me/export) one account may start in an hour, shared by every dyno; past it 429 with Retry-After. At least 1',
  }),
  SCIM_REQUESTS_PER_MINUTE: num({
    default: 600,
    desc: "Requests per minute one organisation's SCIM token may make on /scim/v2 (an identity provider's sync), shared by every dyno; past it 429 with Retry-After",
  }),
  SIGNIN_FAILURES_PER_ADDRESS: num({
    default: 100,
    desc: 'Failed sign-ins one client address may make in 15 minutes, whatever the accounts (stops one address spraying many); past it the address gets 429 until the window ends. Successes are not counted: a classroom behind one NAT signs in freely. At least 1',
  }),
  SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS: num({
    default: 10,
    desc: 'Failed sign-ins for one account from one address in 15 minutes; past it that address gets 429 for that account until the window ends (a success from there clears the count); the owner elsewhere is not affected. At least 1',
  }),
  SIGNIN_FAILURES_BEFORE_DELAY: num({
    default: 10,
    desc: 'Failed sign-ins of one account from any address in 15 minutes before its progressive delay: then an address that failed on the account waits 1 s, 2 s, 4 s ... between attempts (429 with Retry-After), while one that did not is never delayed. At least 1',
  }),
  SIGNIN_DELAY_MAX_SECONDS: num({
    default: 60,
    desc: 'Longest wait of the progressive sign-in delay of an account. At least 1',
  }),
  MFA_CHALLENGE_TTL_SECONDS: num({
    default: 300,
    desc: 'Lifetime of the challenge a sign-in with a second factor answers instead of tokens (POST /auth/mfa/verify); single use. At least 1',
  }),
  MFA_FAILURES_PER_ACCOUNT: num({
    default: 10,
    desc: 'Wrong second-factor codes (TOTP or recovery codes) one account may enter in 15 minutes, over all its challenges and factor checks; past it 429 until the window ends. Each challenge also ends after 5 wrong codes. At least 1',
  }),
  MFA_ISSUER: str({
    default: 'Platform Suite',
    desc: 'The issuer authenticator apps show beside a TOTP factor (the otpauth URI of an enrolment)',
  }),
  WEBAUTHN_RP_ID: str({
    default: '',
    desc: "WebAuthn relying party id passkeys are bound to: the site's domain (e.g. example.com), never changed once passkeys exist (they stop working); unset: the host name of APP_URL, else PUBLIC_URL (localhost in development)",
  }),
  WEBAUTHN_RP_NAME: str({
    default: 'Platform Suite',
    desc: 'The name browsers and authenticators show beside a passkey when it is created',
  }),
  WEBAUTHN_ORIGINS: str({
    default: '',
    desc: 'Comma-separated origins (scheme://host[:port]) a passkey ceremony may come from (the page the browser ran it on); unset: the origins of APP_URL and PUBLIC_URL',
  }),
  SSO_STATE_TTL_SECONDS: num({
    default: 600,
    desc: "Lifetime of a single sign-on attempt between GET /auth/sso/{providerId}/start and the provider's callback (its state, nonce and PKCE verifier, kept in Redis, single use). At least 1",
  }),
  SSO_CODE_TTL_SECONDS: num({
    default: 60,
    desc: 'Lifetime of the one-time code a single sign-on callback hands the front end, which POST /auth/sso/exchange turns into tokens (single use). At least 1',
  }),
  SSO_DNS_SERVERS: str({
    default: '',
    desc: "Comma-separated DNS servers (host or host:port) the TXT lookups of e-mail domain verification ask; unset: the system's resolvers",
  }),
  SSO_ALLOWED_HOSTS: str({
    default: '',
    desc: "Comma-separated host names (or host:port) of OpenID providers exempt from the address policy (private or loopback addresses allowed for them: tests, an identity provider inside the organisation's network). Unset: a provider's discovery, token and key endpoints must resolve to public addresses, checked at every request and connected to the checked address",
  }),
  SSO_ALLOW_INSECURE_ISSUERS: str({
    choices: ['true', 'false'],
    default: 'false',
    desc: 'true lets organisations configure an http:// OpenID issuer (a provider on the loopback in tests and development); refused with NODE_ENV=production, where issuers are https',
  }),
  RATE_LIMIT_BOOKINGS_PER_IP_HOUR: num({
    default: 10,
    desc: 'Storefront bookings made per IP an hour (counted in Redis across dynos; refused ones do not count); over it 429 rate_limited with Retry-After',
  }),
  RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR: num({
    default: 5,
    desc: 'Storefront bookings made per attendee e-mail an hour, whatever the store or IP',
  }),
  RATE_LIMIT_BOOKINGS_PER_STORE_HOUR: num({
    default: 60,
    desc: 'Storefront bookings made per store an hour, whatever the IP',
  }),
  RATE_LIMIT_WAITLIST_PER_IP_HOUR: num({
    default: 10,
    desc: 'Storefront waitlist joins made per IP an hour (counted in Redis across dynos; refused ones do not count); over it 429 rate_limited with Retry-After',
  }),
  RATE_LIMIT_WAITLIST_PER_EMAIL_HOUR: num({
    default: 5,
    desc: 'Storefront waitlist joins made per e-mail an hour, whatever the store or IP',
  }),
  RATE_LIMIT_WAITLIST_PER_STORE_HOUR: num({
    default: 100,
    desc: 'Storefront waitlist joins made per store an hour, whatever the IP',
  }),
  BOOKING_WAITLIST_HOLD_MINUTES: num({
    default: 30,
    desc: 'How long a freed slot is held for the first visitor of its waitlist (the mailed link claims it); then the next in line is offered it (the clock sweeps expired holds every minute)',
  }),
  RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR: num({
    default: 10,
    desc: 'Blog subscriptions asked for per IP an hour (counted in Redis across dynos; refused ones do not count); over it 429 rate_limited with Retry-After',
  }),
  RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR: num({
    default: 3,
    desc: 'Blog subscriptions asked for one address an hour, whatever the blog or IP',
  }),
  RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR: num({
    default: 100,
    desc: 'Blog subscriptions one blog takes an hour, whatever the IP',
  }),
  MAIL_RECIPIENT_CAP_PER_HOUR: num({
    default: 5,
    desc: 'Mails anyone can cause to be sent to an address (sign-up, confirmation, password reset, invitation, booking confirmation, visitor sign-in link, blog subscription confirmation) sent to one address in any hour, counted by the mail worker in Redis; the others are not sent and end capped in the outbox (GET /admin/outbox?status=capped, metric mails_capped_total)',
  }),
  CRM_IMPORT_MAX_BYTES: num({
    default: 100 * 1024 * 1024,
    desc: 'Largest spreadsheet (CSV) a member may upload to import customers, in bytes (413 file_too_large beyond, from Content-Length when sent, else once that many bytes are read); the file is streamed, never held in memory',
  }),
  CRM_IMPORT_MAX_ROWS: num({
    default: 200_000,
    desc: 'Most rows of one spreadsheet import (413 too_many_rows beyond)',
  }),
  S3_ENDPOINT: str({ default: '', desc: 'MinIO/S3 endpoint URL; unset selects the local storage adapter' }),
  S3_ACCESS_KEY: str({ default: '', desc: 'Access key of the S3/MinIO endpoint' }),
  S3_SECRET_KEY: str({ default: '', desc: 'Secret key of the S3/MinIO endpoint' }),
  S3_BUCKET: str({ default: 'platform', desc: 'Bucket holding every object (keys are prefixed by tenant)' }),
  S3_REGION: str({ default: 'us-east-1', desc: 'Region of the bucket' }),
  STORAGE_DIR: str({ default: '.data/storage', desc: 'Root of the local storage adapter' }),
  SMTP_URL: str({ default: '', desc: 'SMTP server for mail; unset keeps mails in the outbox table' }),
  MAIL_FROM: str({ default: 'Platform Suite <no-reply@localhost>', desc: 'Sender of every mail' }),
  STRIPE_SECRET_KEY: str({
    default: '',
    desc: 'Stripe secret key; unset makes checkout, portal and paid plan changes answer 503',
  }),
  STRIPE_WEBHOOK_SECRET: str({ default: '', desc: 'Signing secret of the Stripe webhook endpoint (whsec_...)' }),
  STRIPE_API_URL: str({ default: '', desc: 'Override of the Stripe API address (tests, stripe-mock)' }),
  OPENAI_API_KEY: str({
    default: '',
    desc: 'Key of the AI layer (VR assistant, POST /internal/ai/chat); unset disables the assistant',
  }),
  OPENAI_BASE_URL: str({ default: '', desc: 'Any OpenAI-compatible server (unset: api.openai.com)' }),
  OPENAI_MODEL: str({ default: 'gpt-4o-mini', desc: 'Chat model of the AI layer' }),
  ASSISTANT_QUESTIONS_PER_MINUTE: num({
    default: 20,
    desc: 'Questions (and answered step_changed events) one user may put to the VR assistant a minute, across sockets and dynos (counted in Redis); over it the question gets error rate_limited with retryAfter and no model call. At least 1',
  }),
  CALDAV_URL: str({
    default: '',
    desc: 'Public base URL of the built-in CalDAV server when it is not PUBLIC_URL (a proxy in front), shown by GET /api/calendar/sync-info as <url>/dav/; unset: PUBLIC_URL',
  }),
  // External calendars read as busy time (docs/calendar.md).
  CALENDAR_ALLOWED_HOSTS: str({
    default: '',
    desc: 'Comma-separated host names (or host:port) of external CalDAV calendars exempt from the address policy (as WEBHOOK_ALLOWED_HOSTS: plain http and private or loopback addresses allowed for them; tests, a local server). Unset: every calendar URL must be https (http too when NODE_ENV=development) and resolve to public addresses only, checked when connected and at every sync',
  }),
  CALENDAR_SYNC_MINUTES: num({
    default: 10,
    desc: 'A connected external calendar is synced again this many minutes after its last sync (the clock offers due ones every 5 minutes; a member can ask for a sync at once)',
  }),
  CALENDAR_SYNC_TIMEOUT_MS: num({
    default: 15000,
    desc: 'Bound of one request to an external CalDAV server during a sync; past it the sync fails (and is retried)',
  }),
  HUB_URL: str({
    default: '',
    desc: "Real-time hub; each module's notifications are POSTed to <HUB_URL>/<module>/notify. Unset skips notifications",
  }),
  VR_WEBHOOK_SECRET: str({
    default: '',
    desc: 'Sent as X-Webhook-Secret (and HMAC key of X-Webhook-Signature) to the hub; notifications need it with HUB_URL',
  }),
  KNOWLEDGE_VIEW_FLUSH_MS: num({
    default: 1000,
    desc: 'Article views are counted in memory and written to Redis this long after the first one waiting (a read sends no Redis command); a dyno killed loses at most this window of views',
  }),
  KNOWLEDGE_WEBHOOK_SECRET: str({
    default: '',
    desc: 'Secret of the knowledge notifications to <HUB_URL>/knowledge/notify (as VR_WEBHOOK_SECRET); unset skips them',
  }),
  CORE_WEBHOOK_SECRET: str({
    default: '',
    desc: 'Secret of the core notifications to <HUB_URL>/core/notify (as VR_WEBHOOK_SECRET); unset skips them',
  }),
  CLOUD_WEBHOOK_SECRET: str({
    default: '',
    desc: 'Secret of the cloud notifications to <HUB_URL>/cloud/notify (as VR_WEBHOOK_SECRET); unset skips them',
  }),
  RH_WEBHOOK_SECRET: str({
    default: '',
    desc: 'Secret of the HR (rh) notifications to <HUB_URL>/rh/notify (as VR_WEBHOOK_SECRET); unset skips them',
  }),
  CLOUD_MAX_UPLOAD_BYTES: num({
    default: 5 * 1024 ** 3,
    desc: 'Largest file one cloud upload may declare (bytes; a single S3 PUT takes at most 5 GiB)',
  }),
  CLOUD_UPLOAD_TTL_SECONDS: num({
    default: 900,
    desc: 'Lifetime of a cloud upload address; its quota reservation is released (and a stray object deleted) 10 minutes after',
  }),
  CLOUD_MULTIPART_MAX_BYTES: num({
    default: 5 * 1024 ** 4,
    desc: 'Largest file one resumable (multipart) cloud upload may declare (bytes; S3 objects reach 5 TiB)',
  }),
  CLOUD_MULTIPART_PART_SIZE_MIN: num({
    default: 8 * 1024 ** 2,
    desc: "Least part size of a resumable cloud upload (bytes); larger files get larger parts so that none needs more than 10,000. S3 and MinIO refuse parts under 5 MiB (the last excepted): lower it only for a store that takes them (the tests' s3rver, the local adapter)",
  }),
  CLOUD_MULTIPART_TTL_SECONDS: num({
    default: 86400,
    desc: 'Time a resumable cloud upload may take from its start to its completion; afterwards the sweep aborts it (its parts deleted) and releases its quota reservation',
  }),
  CLOUD_SHARE_EXPIRY_NOTICE_HOURS: num({
    default: 24,
    desc: 'How long before a cloud link share expires its creator is mailed about it (once per link; 0: never). Links that expire sooner than this after their creation are noticed at once',
  }),
  CLOUD_PREVIEW_MAX_BYTES: num({
    default: 32 * 1024 * 1024,
    desc: 'Largest drive image or PDF the worker makes a thumbnail of (bytes); larger ones have none',
  }),
  CLOUD_LINK_TTL_SECONDS: num({
    default: 900,
    desc: 'Lifetime of cloud download addresses and of inline render tokens (t)',
  }),
  // Customers' webhooks (docs/webhooks.md).
  WEBHOOK_ALLOWED_HOSTS: str({
    default: '',
    desc: 'Comma-separated host names (or host:port) of webhook endpoints exempt from the address policy: plain http and private, loopback or link-local addresses are allowed for them (tests, a local receiver in development). Unset: every endpoint must be https (http too when NODE_ENV=development) and resolve to public addresses only, checked at creation and again at each delivery after DNS resolution',
  }),
  WEBHOOK_TIMEOUT_MS: num({
    default: 5000,
    desc: 'Bound of one webhook delivery attempt (connect, send, answer); past it the attempt fails and is retried. Short, so a slow endpoint holds a worker slot briefly',
  }),
  WEBHOOK_RETRY_SCHEDULE: str({
    default: '5,300,1800,7200,18000,36000,36000',
    desc: 'Seconds to wait before each retry of a failed webhook delivery, comma-separated (the default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about 28 hours in all); after the last the delivery is failed',
  }),
  WEBHOOK_DISABLE_AFTER_HOURS: num({
    default: 48,
    desc: "When a delivery fails for good (its retries used up) and its endpoint has had no successful delivery for this long, the endpoint is disabled and the organisation's owners and admins are mailed (0: at the first delivery failed for good)",
  }),
  WEBHOOK_SECRET_GRACE_HOURS: num({
    default: 24,
    desc: 'After a secret rotation, how long the previous signing secret still signs deliveries beside the new one (both in webhook-signature)',
  }),
  WEBHOOK_ENDPOINT_CONCURRENCY: num({
    default: 4,
    desc: 'Deliveries in flight to one endpoint at once across the worker dynos (counted in Redis): a slow or dead endpoint holds at most this many worker slots, the others wait in the queue',
  }),
  WEBHOOK_RATE_PER_SECOND: num({
    default: 50,
    desc: 'Webhook deliveries (attempts) per organisation a second across the worker dynos; the ones over it wait their turn (no attempt spent)',
  }),
  WEBHOOK_MAX_ENDPOINTS: num({
    default: 20,
    desc: 'Webhook endpoints an organisation may have; the next is 409 webhook_endpoint_limit',
  }),
  WEBHOOK_MAX_PAYLOAD_BYTES: num({
    default: 65536,
    desc: "Largest webhook body sent; an event whose body is larger is sent with its data cut down to the resource's id and `truncated: true` (fetch the resource through the API)",
  }),
  WEBHOOK_LOG_RETENTION_DAYS: num({
    default: 30,
    desc: 'Days a settled webhook delivery (delivered or failed) is kept in the delivery log after its last attempt, with its attempts; the nightly prune deletes older ones, and an event once none of its deliveries is left. Pending deliveries are never deleted. Replays reach back this far',
  }),
  DELIVERY_RETENTION_DAYS: num({
    default: 30,
    desc: 'Days the records of processed GitHub deliveries and of hub notification attempts are kept before the nightly prune deletes them',
  }),
  DAV_XML_MAX_BYTES: num({
    default: 1024 * 1024,
    desc: 'Largest XML body a WebDAV request (PROPFIND, PROPPATCH, LOCK) may send (bytes); larger ones get 413',
  }),
  DAV_LOCK_MAX_SECONDS: num({
    default: 3600,
    desc: 'Longest WebDAV lock timeout granted (seconds; Infinite gets this), also the default when a LOCK asks none',
  }),
  CLOUD_TRASH_RETENTION_DAYS: num({
    default: 30,
    desc: 'Days a trashed cloud file or folder is kept before the purge deletes it and its objects',
  }),
  CLOUD_VERSIONS_MAX_PER_FILE: num({
    default: 50,
    desc: "Most versions a cloud file keeps (the newest) after the retention's thinning by age; the sweep deletes the others",
  }),
  VR_TELEMETRY_RETENTION_MONTHS: num({
    default: 24,
    desc: 'Months of raw VR telemetry events kept (whole months, dropped by partition; 0 keeps them all). Sessions, participants and steps passed are kept regardless',
  }),
  VR_TELEMETRY_PARTITIONS_AHEAD: num({
    default: 2,
    desc: 'Monthly telemetry partitions the clock keeps created ahead of the current month',
  }),
  PRESENCE_TTL_SECONDS: num({
    default: 60,
    desc: 'VR presence lifetime after the last heartbeat; its expiry is a departure',
  }),
  TELEMETRY_GRACE_SECONDS: num({
    default: 300,
    desc: 'How long after a VR session ended its telemetry is still accepted (late batches of headsets)',
  }),
  TRIAL_DAYS: num({ default: 14, desc: 'Length of the one free trial an organisation may start' }),
  BILLING_RETURN_URL: str({
    default: '',
    desc: 'Page Stripe Checkout and the billing portal return to (defaults to APP_URL or PUBLIC_URL + /billing)',
  }),
  ENTITLEMENT_CACHE_TTL_SECONDS: num({
    default: 300,
    desc: 'TTL of the shared entitlement cache (changes invalidate it at once)',
  }),
  EINVOICE_PLATFORM_URL: str({
    default: '',
    desc: 'E-invoicing platform (PDP) base URL of the HTTP adapter (lib/einvoice.ts); unset makes e-invoice submission answer 503 einvoice_platform_not_configured',
  }),
  EINVOICE_PLATFORM_TOKEN: str({ default: '', desc: 'Bearer token sent to the e-invoicing platform' }),
  EINVOICE_PLATFORM_NAME: str({
    default: 'pdp',
    desc: 'Name of the e-invoicing platform recorded with each submission',
  }),
  EINVOICE_PLATFORM_TIMEOUT_MS: num({
    default: 15000,
    desc: 'Bound of each call to the e-invoicing platform (a timeout is retried)',
  }),
  EINVOICE_PLATFORM_FORMAT: str({
    choices: ['factur-x', 'cii', 'ubl'],
    default: 'factur-x',
    desc: 'The syntax the e-invoicing platform takes documents in: factur-x (the PDF with its CII XML), cii (the CII XML) or ubl (UBL 2.1 XML)',
  }),
  EREPORTING_START: str({
    default: '2026-09-01',
    desc: 'E-reporting: the first day reported (YYYY-MM-DD); documents and payments dated before it are never e-reported, and an organisation is reported from the period of its first document or payment on or after it',
  }),
  HR_LEAVE_REFERENCE_START_MONTH: num({
    default: 6,
    desc: 'HR paid leave: the month (1-12) the reference period starts, 6 for the legal 1 June - 31 May (an agreement may choose another, e.g. 1 for the calendar year)',
  }),
  HR_LEAVE_CARRY_OVER_DAYS: num({
    default: -1,
    desc: 'HR paid leave: the N-1 days not taken that a closing reference period carries over; the rest expires (an `expiry` movement). Negative carries everything (nothing expires)',
  }),
  JOB_RETRY_DELAY_MS: num({
    default: 0,
    desc: "Overrides the base delay of every queue's exponential retry backoff (0 keeps each queue's own)",
  }),
  WORKER_CONCURRENCY: num({ default: 8, desc: 'Concurrent jobs per queue in a worker dyno' }),
  JOB_LOCK_MS: num({
    default: 8000,
    desc: 'Lock of a running job, renewed every quarter of it: the jobs of a worker that died are taken again by another within about 1.25x this; an event loop blocked longer than three quarters of it loses its locks (the jobs then run again elsewhere). At least 1000',
  }),
  ADMIN_EMAIL: str({
    default: '',
    desc: 'Makes this account a platform administrator in the release phase and at npm start: created when missing, taken over when its address was never confirmed, refused when confirmed with another password (README, First platform administrator)',
  }),
  ADMIN_PASSWORD: str({
    default: '',
    desc: 'Password of ADMIN_EMAIL: set when the account is created or taken over; a confirmed account must already have it',
  }),
};

export type Config = ReturnType<typeof parse> & { storageDriver: 's3' | 'local'; production: boolean };

function parse(env: Record<string, string | undefined>) {
  return cleanEnv(env, configSpec, {
    reporter: ({ errors }) => {
      const names = Object.entries(errors).map(([name, err]) =>
        err instanceof EnvMissingError ? `${name} is required` : `${name}: ${(err as Error).message}`,
      );
      if (names.length) throw new ConfigError(`Invalid configuration: ${names.join('; ')}`);
    },
  });
}

export class ConfigError extends Error {}

/** Where a generated development secret is kept, so tokens survive restarts of `npm start`. */
const devSecretFile = resolve('.data', 'jwt-secret');

function devSecret(): string {
  if (existsSync(devSecretFile)) return readFileSync(devSecretFile, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(dirname(devSecretFile), { recursive: true });
  writeFileSync(devSecretFile, secret, { mode: 0o600 });
  return secret;
}

/** Counts and limits whose 0 or fraction would mean nothing sensible (a limit of 0 refuses every request). */
const atLeastOne = [
  'ACCOUNT_EXPORTS_PER_HOUR',
  'ASSISTANT_QUESTIONS_PER_MINUTE',
  'SIGNIN_FAILURES_PER_ADDRESS',
  'SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS',
  'SIGNIN_FAILURES_BEFORE_DELAY',
  'SIGNIN_DELAY_MAX_SECONDS',
  'MFA_CHALLENGE_TTL_SECONDS',
  'MFA_FAILURES_PER_ACCOUNT',
  'SSO_STATE_TTL_SECONDS',
  'SSO_CODE_TTL_SECONDS',
  'WS_MAX_SOCKETS_PER_USER',
  'WS_MAX_SOCKETS_PER_ADDRESS',
  'WS_SOCKET_LEASE_SECONDS',
  'RATE_LIMIT_BOOKINGS_PER_IP_HOUR',
  'RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR',
  'RATE_LIMIT_BOOKINGS_PER_STORE_HOUR',
  'RATE_LIMIT_WAITLIST_PER_IP_HOUR',
  'RATE_LIMIT_WAITLIST_PER_EMAIL_HOUR',
  'RATE_LIMIT_WAITLIST_PER_STORE_HOUR',
  'BOOKING_WAITLIST_HOLD_MINUTES',
  'RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR',
  'RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR',
  'RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR',
  'MAIL_RECIPIENT_CAP_PER_HOUR',
  'CRM_IMPORT_MAX_BYTES',
  'CRM_IMPORT_MAX_ROWS',
  'CALENDAR_SYNC_MINUTES',
  'CALENDAR_SYNC_TIMEOUT_MS',
] as const;

/**
 * Passkeys bind to the relying party id, and a browser runs a ceremony only on a page whose host is that id or a
 * subdomain of it, over https (http on localhost only): an origin that breaks this would fail every ceremony, so
 * it is refused at start, not answered with a 500 on the first passkey.
 */
function checkWebAuthn(parsed: Pick<Config, 'WEBAUTHN_RP_ID' | 'WEBAUTHN_ORIGINS' | 'APP_URL' | 'PUBLIC_URL'>): void {
  const fail = (why: string) => new ConfigError(`Invalid configuration: ${why}`);
  const url = (value: string, name: string) => {
    try {
      return new URL(value.trim());
    } catch {
      throw fail(`${name} must be origins (scheme://host[:port]), comma-separated; got "${value.trim()}"`);
    }
  };
  const site = parsed.APP_URL || parsed.PUBLIC_URL;
  const rpId =
    parsed.WEBAUTHN_RP_ID.trim() || (site ? url(site, parsed.APP_URL ? 'APP_URL' : 'PUBLIC_URL').hostname : '');
  for (const value of parsed.WEBAUTHN_ORIGINS.split(',').filter((o) => o.trim())) {
    const origin = url(value, 'WEBAUTHN_ORIGINS');
    const local = origin.hostname === 'localhost' || origin.hostname.endsWith('.localhost');
    if (origin.protocol !== 'https:' && !(origin.protocol === 'http:' && local))
      throw fail(`WEBAUTHN_ORIGINS: ${origin.origin} must use https (http only on localhost)`);
    if (rpId && origin.hostname !== rpId && !origin.hostname.endsWith(`.${rpId}`))
      throw fail(
        `WEBAUTHN_ORIGINS: ${origin.origin} is not on the relying party ${rpId} (WEBAUTHN_RP_ID) or a subdomain`,
      );
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...source };
  const production = env.NODE_ENV === 'production';
  if (!production) {
    env.JWT_SECRET ||= devSecret();
    env.PUBLIC_URL ||= `http://localhost:${env.PORT || 3000}`;
  }
  const parsed = parse(env);
  if (parsed.JWT_SECRET.length < 32)
    throw new ConfigError('Invalid configuration: JWT_SECRET must be at least 32 characters');
  if (!(parsed.JOB_LOCK_MS >= 1000)) throw new ConfigError('Invalid configuration: JOB_LOCK_MS must be at least 1000');
  if (![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].includes(parsed.HR_LEAVE_REFERENCE_START_MONTH))
    throw new ConfigError('Invalid configuration: HR_LEAVE_REFERENCE_START_MONTH must be a month, 1 to 12');
  for (const name of atLeastOne)
    if (!Number.isInteger(parsed[name]) || parsed[name] < 1)
      throw new ConfigError(`Invalid configuration: ${name} must be a whole number of at least 1`);
  checkWebAuthn(parsed);
  if (production && parsed.SSO_ALLOW_INSECURE_ISSUERS === 'true')
    throw new ConfigError('Invalid configuration: SSO_ALLOW_INSECURE_ISSUERS cannot be true in production');
  const wsPerProcess = parsed.WS_MAX_SOCKETS_PER_PROCESS || Math.floor((parsed.WEB_MAX_CONNECTIONS * 4) / 5);
  if (!Number.isInteger(wsPerProcess) || wsPerProcess < 1 || wsPerProcess >= parsed.WEB_MAX_CONNECTIONS) {
    throw new ConfigError(
      'Invalid configuration: WS_MAX_SOCKETS_PER_PROCESS must be a whole number below WEB_MAX_CONNECTIONS (HTTP requests need connections too)',
    );
  }
  return Object.freeze({
    ...parsed,
    WS_MAX_SOCKETS_PER_PROCESS: wsPerProcess,
    storageDriver: parsed.S3_ENDPOINT ? 's3' : 'local',
    production,
  }) as Config;
}
