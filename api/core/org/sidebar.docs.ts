import { prose } from '../../http/docs';

export const everySidebarEntryDoc = prose`
  Per entry: the module it belongs to and the permission it needs (null: none), in default order. GET
  /api/sidebar/access is what the caller may see.
`;

export const sidebarDoc = prose`
  The entries the caller may see: module in use by the organisation (entitled and switched on, PATCH
  /api/businesses/{id}/modules) and permission held. Arranged by the caller's preferences, else the default of the first
  of their roles (by key) that has one, else the catalogue: pinned first, then the layout's order, then catalogue order.
  Hidden entries are listed, flagged.
`;

export const setSidebarArrangementDoc = prose`
  Replaces it: order, hidden and pinned are keys of the catalogue (unknown keys 400); an entry cannot be pinned and
  hidden. Entries the caller may not see may be listed (they show once access is given).
`;

export const sidebarDefaultsPerRoleDoc = prose`
  id: a role of the organisation (GET /rbac/roles; another organisation's: 404). Members holding the role and no
  arrangement of their own see it. Access still comes from modules and permissions: a default cannot show an entry a
  member may not see.
`;
