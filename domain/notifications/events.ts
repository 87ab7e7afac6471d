/**
 * The outbound notifications of every module to the real-time hub: the event names each module sends.
 * A module adds its events to its list here (and emits them with `notify`, domain/notifications/notify.ts);
 * Keys are the modules' entitlement keys (HR is `rh`). A new module adds its key here and `<MODULE>_WEBHOOK_SECRET` to lib/config.ts (the compiler asks for it).
 *
 * Each notification is one POST of JSON to `<HUB_URL>/<module>/notify`, authenticated by the module's secret
 * twice: `X-Webhook-Secret: <secret>` and `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 * The body (envelope):
 *
 *   { id, module, event, occurredAt, tenantId, ...subject, data }
 *
 *   id          UUIDv7 of the notification: a hub drops one it already handled (a retry may deliver twice)
 *   module      the key below; also the path segment
 *   event       one of the module's names below
 *   occurredAt  ISO 8601 time the change committed
 *   tenantId    the organisation concerned
 *   subject     top-level ids of what changed, per module: vr sends roomId, sessionId, userId (null when n/a);
 *               rh sends employeeId and the id of the record concerned
 *   data        event details (free-form per event, documented beside the names)
 *
 * Delivery is best effort: a few quick attempts, then the notification is dropped (the hub polls).
 */
export const notificationEvents = {
  /**
   * data: room.opened {name, simulation}; room.closed {name}; session.started {simulation, hostUserId,
   * displayName}; session.ended {reason: host_left | host_timeout | room_closed, durationSeconds,
   * participants: user ids present at the end}; participant.arrived {displayName}; participant.departed
   * {reason: left | timeout}. userId is the participant's (session.*: the host's).
   */
  vr: ['room.opened', 'room.closed', 'session.started', 'session.ended', 'participant.arrived', 'participant.departed'],
  /**
   * Subject: spaceId, articleId (null when n/a). data: space.created / space.deleted {name, slug, mode};
   * article.created {title, kind, status}; article.updated {title, version}; article.status_changed {from, to};
   * article.published {title, slug}; article.archived {from}; comment.created {commentId}.
   */
  knowledge: [
    'space.created',
    'space.deleted',
    'article.created',
    'article.updated',
    'article.status_changed',
    'article.published',
    'article.archived',
    'comment.created',
  ],
  /**
   * Subject: fileId, folderId, userId (the actor; null for the clock). data: file.uploaded {name, size,
   * contentType, parentId}; file.shared {kind: link | members, memberIds, expiresAt}; items.trashed {fileIds,
   * folderIds}; item.restored {kind, name, parentId}; trash.purged {files, folders, bytes}; quota.refused
   * {requestedBytes, quotaBytes, usedBytes, reservedBytes}.
   */
  cloud: ['file.uploaded', 'file.shared', 'items.trashed', 'item.restored', 'trash.purged', 'quota.refused'],
  /**
   * CRM (subject: customerId, dealId, null when n/a): customer.created {name, source: api | import |
   * find_or_create}; customer.deleted {name}; deal.created {title, stageId, amount, currency}; deal.moved
   * {fromStageId, toStageId}; deal.won / deal.lost {amount, currency, reason (lost)}; deal.reopened {};
   * import.completed {importId, kind: customers | deals, created, updated, failed}.
   * Invoicing (subject: invoiceId, customerId): invoice.issued {number, kind, grandTotalCents, dueDate};
   * invoice.credited {creditNoteId, creditNoteNumber, amountCents, status}; invoice.payment_recorded
   * {amountCents, paidCents, status}; einvoice.status_changed {status, previous, detail}.
   * Booking (subject: appointmentId, customerId or null; data always has serviceId, staffId, startAt, status):
   * appointment.booked {source: staff | storefront}; appointment.rescheduled {previousStartAt};
   * appointment.status_changed / appointment.cancelled {from, to}.
   */
  core: [
    'customer.created',
    'customer.deleted',
    'deal.created',
    'deal.moved',
    'deal.won',
    'deal.lost',
    'deal.reopened',
    'import.completed',
    'invoice.issued',
    'invoice.credited',
    'invoice.payment_recorded',
    'einvoice.status_changed',
    'appointment.booked',
    'appointment.rescheduled',
    'appointment.status_changed',
    'appointment.cancelled',
  ],
  /**
   * subject: employeeId, plus leaveRequestId (leave.*), clockEventId (clock.*), alertId (compliance.*).
   * data: clock.punched {kind: in | out, at, source}; clock.corrected {action: amend | void, at, kind, reason};
   * leave.requested {leaveType, startDate, endDate, days}; leave.decided {status: granted | refused, startDate,
   * endDate, days} (the final decision); leave.step_approved {step, of, next: {kind, userId}} (a step of an approval
   * chain approved, more to come); leave.cancelled {previousStatus: pending | granted, startDate, endDate, days}; compliance.alert_raised {rule, periodKey, measuredMinutes, limitMinutes}.
   */
  rh: [
    'clock.punched',
    'clock.corrected',
    'leave.requested',
    'leave.decided',
    'leave.step_approved',
    'leave.cancelled',
    'compliance.alert_raised',
  ],
} as const satisfies Record<string, readonly string[]>;

export type NotifyingModule = keyof typeof notificationEvents;
export type NotificationEvent<M extends NotifyingModule> = (typeof notificationEvents)[M][number];
