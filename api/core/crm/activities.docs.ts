import { prose } from '../../http/docs';

export const openFollowUpsAcrossDoc = prose`
  Activities not completed that are tasks or have a due date, soonest due first (undated tasks last). assignee: me
  (default), anyone or a member id; due: overdue, soon (within \`days\`), all.
`;

export const completeEditActivityDoc = prose`
  \`completed: true\` completes it now (completing again keeps the first time), false reopens it. A done activity has
  happened: one whose occurredAt is in the future (a planned call or meeting made early) is placed at its completion
  time. Completing a call, e-mail or meeting updates the customer's lastContactAt; the health score follows.
`;

export const addNoteCallEDoc = prose`
  occurredAt places it on the timeline (default: dueAt, else now). Notes and e-mails are done when added, tasks are
  open, calls and meetings are done unless they have a dueAt (a planned one). One added as done is placed at most at
  now: a future occurredAt (or dueAt) becomes the time it was added.
`;

export const unifiedTimelineCustomerDoc = prose`
  Activities, and the invoices and appointments of their modules, newest first (time, then source, then id), paged with
  an opaque cursor; optional time range [from, to) and sources filter.
`;

export const healthScoreCustomerDoc = prose`
  score = round(100 × Σ(weight × value) / Σ(weight)) over the signals that apply, each value from 0 (bad) to 1
  (healthy); risk low ≥ 70, medium 40-69, high < 40. Signals: recency (30: 1 up to 14 days since the last
  call/e-mail/meeting, 0 at 90 days or never), overdue_tasks (20: 1 - 0.25 per overdue follow-up), deal_momentum (15:
  share of open deals that entered their stage in 30 days; absent without open deals), activity_trend (10: 0.5 + (recent
  - previous) / (2 max) over two 30-day windows), and those of other modules (unpaid invoices ...). Read from the stored
  row the worker recomputes on changes and nightly.
`;
