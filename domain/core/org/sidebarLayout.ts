import { badRequest, type FieldError } from '../../../lib/errors';
import { sidebarKeys } from './sidebarCatalogue';

/** An arrangement of the sidebar: entry keys in order, hidden, pinned (each a subset of the catalogue). */
export interface SidebarLayout {
  order: string[];
  hidden: string[];
  pinned: string[];
}

export const emptyLayout = (): SidebarLayout => ({ order: [], hidden: [], pinned: [] });

/** 400 naming every key that is not in the sidebar catalogue, and a pinned entry that is also hidden. */
export function checkLayout(layout: SidebarLayout): SidebarLayout {
  const errors: FieldError[] = [];
  for (const field of ['order', 'hidden', 'pinned'] as const) {
    const unknown = layout[field].filter((k) => !sidebarKeys.includes(k));
    if (unknown.length) errors.push({ field, message: `unknown sidebar entries: ${unknown.join(', ')}` });
  }
  const both = layout.pinned.filter((k) => layout.hidden.includes(k));
  if (both.length) errors.push({ field: 'pinned', message: `entries cannot be pinned and hidden: ${both.join(', ')}` });
  if (errors.length) throw badRequest('validation_failed', 'The request is invalid', errors);
  return { order: [...layout.order], hidden: [...layout.hidden], pinned: [...layout.pinned] };
}

export const layoutOf = (row: SidebarLayout | null | undefined): SidebarLayout | null =>
  row ? { order: row.order, hidden: row.hidden, pinned: row.pinned } : null;
