import type { Request } from 'express';
import type { ModuleMount } from '../http/mount';
import { accepted } from '../http/routes';
import { acceptTelemetry } from '../../domain/vr/acceptTelemetry';
import { BATCH_KEY_LENGTH } from '../../entities/vr/telemetry';
import { badRequest } from '../../lib/errors';
import { TelemetryBody } from './dtos';
import { IdParams } from '../http/dtos';
import { TelemetryAcceptedView } from './views';
import { postSessionsIdTelemetry } from './telemetry.docs';

const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${BATCH_KEY_LENGTH}}$`);
const IDEMPOTENCY_KEY_RULE = `must be 1-${BATCH_KEY_LENGTH} visible ASCII characters`;

function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key))
    throw badRequest('invalid_idempotency_key', `Idempotency-Key ${IDEMPOTENCY_KEY_RULE}`, [
      { field: 'Idempotency-Key', message: IDEMPOTENCY_KEY_RULE },
    ]);
  return key;
}

/** Telemetry intake: the hot path of the module (headsets mirror their event bus here). */
export function telemetryRoutes({ routes }: ModuleMount): void {
  const r = routes('VR telemetry');

  r.post(
    '/sessions/:id/telemetry',
    {
      access: 'user',
      module: 'vr',
      permission: 'vr.play',
      summary: 'Send a batch of telemetry events',
      description: postSessionsIdTelemetry,
      params: IdParams,
      body: TelemetryBody,
      bodyLimit: '2mb',
      response: TelemetryAcceptedView,
      status: 202,
      errors: {
        400: 'Invalid events (`validation_failed`), `invalid_idempotency_key`',
        409: '`session_ended`',
        413: '`batch_too_large`, `payload_too_large`',
        422: '`not_a_participant`: an event names a member of the organisation (not the sender) who took part neither as host nor by joining this session',
      },
    },
    async ({ ctx, params, body, req }) =>
      accepted(
        TelemetryAcceptedView.from(
          await acceptTelemetry(ctx, {
            sessionId: params.id,
            events: body.events,
            idempotencyKey: idempotencyKeyOf(req),
          }),
        ),
      ),
  );
}
