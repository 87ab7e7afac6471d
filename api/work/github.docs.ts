import { prose } from '../http/docs';

/** The long descriptions of github.ts's routes (see api/http/docs.ts). */

export const githubWebhookSettings = prose`
  Whether a webhookSecret is set, when it was last rotated, and the Payload URL to give GitHub. The secret itself is
  never shown again.
`;

export const setRotateGitHubWebhookSecret = prose`
  Sets the organisation's webhookSecret (a random 256-bit one unless \`secret\` is given) and returns it once with the
  Payload URL. Stored sealed (AES-256-GCM under a key derived from the server secret), since the HMAC check needs it in
  clear. Rotation takes effect at once: deliveries signed with the previous secret are refused (403) from then on, so
  update GitHub right after.
`;

/** Not prose: its line breaks are part of the published text (the contract stays as it was). */
export const githubWebhook = `Anonymous but signed. The organisation is named by \`?org=<organisation id>\` in the Payload URL (GET /api/work/github gives it), so the
signature is checked before the body is parsed: X-Hub-Signature-256 must be \`sha256=\` + the hex HMAC-SHA256 of the raw body under that organisation's
webhookSecret (timing-safe comparison). No signature, no or unknown \`org\`, or an organisation without a secret: a silent 200 (\`received: false\`),
nothing stored. A wrong signature: 403 \`signature_invalid\`. A valid delivery is stored by its X-GitHub-Delivery id and processed by a worker; the
answer comes at once. issues and pull_request events with action closed set the linked work items done (issue) or resolved (pull request);
reopened sets them in_progress; other events are recorded and ignored. A replayed X-GitHub-Delivery answers \`duplicate: true\` and does nothing
again; an event whose issue/pull request updated_at is earlier than the last one applied to an item leaves it alone, so deliveries arriving
out of order end in the latest state. GitHub's updated_at has one-second resolution: on an equal updated_at (e.g. closed then reopened within the
same second) the delivery received later wins, whatever the order the worker processes them in: an item moves unless a delivery of the same
issue/pull request and instant, received after this one, was already applied; a delivery processed again never wins against itself, so it
changes nothing. Editing an item with its link unchanged keeps the last event applied; a changed link forgets it. Text PostgreSQL cannot store (\\u0000 escapes, unpaired surrogates) is dropped, or replaced by U+FFFD, in
the stored delivery rather than refusing it.`;
