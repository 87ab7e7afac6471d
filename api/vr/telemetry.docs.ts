import { MAX_BATCH_EVENTS, TELEMETRY_VOCABULARY } from '../../domain/vr/telemetryVocabulary';
import { BATCH_KEY_LENGTH } from '../../entities/vr/telemetry';
import { IDEMPOTENCY_TTL_SECONDS } from '../../domain/vr/acceptTelemetry';

/** Long descriptions of the routes of telemetry.ts (the OpenAPI text). */

/** POST /sessions/:id/telemetry */
export const postSessionsIdTelemetry = `Answers 202 as soon as the batch is queued (one job per batch); reports reflect it within seconds.
Batch: 1 to ${MAX_BATCH_EVENTS} events (more: 413 \`batch_too_large\`; body up to 2 MB).
The session must belong to the organisation (404) and be running, or have ended less than TELEMETRY_GRACE_SECONDS
(300 s by default) ago, for late batches; later: 409 \`session_ended\`.

Whose events: \`userId\` defaults to the sender, and may name the sender, a user who took part in this session
(hosted or joined it; also after they left, and during the grace period), or an id that is not a member of the
organisation: a simulated trainee of an instructor's headset, reported as a participant without \`joinedAt\`.
Naming a member of the organisation who is not the sender and never joined this session refuses the whole batch
with 422 \`not_a_participant\`, one \`errors\` entry per such event (\`events[3].userId\`); nothing of it is
applied and its \`Idempotency-Key\` stays unused. Should the intake be unable to tell (its record of the session's
participants lost, or gone 24 h after the last join), the batch is accepted and the events naming such a member
are dropped when it is applied: never stored, never counted in the session's figures or anyone's progress (nor
credited to the sender).

Send an \`Idempotency-Key\` header (1-${BATCH_KEY_LENGTH} visible ASCII characters, unique per batch) and retry freely: a batch
with a key already accepted for this session answers 202 with \`duplicate: true\` and counts once (keys are
remembered ${IDEMPOTENCY_TTL_SECONDS / 3600} h at the edge and for ever by the database). \`duplicate: true\` means
the batch is stored or will be; one whose processing failed is accepted again (\`duplicate: false\`), so a retry
repairs it.

${TELEMETRY_VOCABULARY}`;
