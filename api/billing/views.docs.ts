import { prose } from '../http/docs';

/** Long descriptions of the schemas of views.ts (the OpenAPI text). */

/** limits.vrRooms */
export const vrRoomsLimit = prose`
  VR rooms an organisation may have; null: no cap (e.g. a tier without the vr module, for an organisation that holds vr
  through a trial or an add-on)
`;

/** WebhookReceiptView.duplicate */
export const webhookDuplicate = prose`
  The event id was already stored and nothing new was done (processed, or its job still pending); absent when an
  unprocessed event whose job had failed was retried
`;
