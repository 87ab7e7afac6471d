/**
 * Every permission of the suite, by module. Roles hold sets of these keys; routes guard with
 * requirePermission(key). Adding a capability to a module means adding its key here.
 */
export const permissionCatalogue = {
  identity: {
    'org.manage': 'Rename the organisation and manage its settings',
    'org.members.read': 'See members, their roles and invitations',
    'org.members.invite': 'Invite people and revoke invitations',
    'org.members.manage': "Change members' roles and remove members",
    'rbac.manage': 'Create, edit and delete roles',
  },
  billing: {
    'billing.read': 'See the subscription, invoices and entitlements',
    'billing.manage': 'Change plan, start trials, buy add-ons, open checkout and portal',
  },
  vr: {
    'vr.rooms.read': 'See rooms, sessions and presence',
    'vr.rooms.manage': 'Create, edit, open, close and delete rooms',
    'vr.play': 'Host and join rooms from a headset, send telemetry, use the assistant',
    'vr.reports.read': 'Read session and overview reports',
  },
  knowledge: {
    'knowledge.read': 'Read internal spaces and articles',
    'knowledge.write': 'Write and publish articles, manage spaces and collections',
    'knowledge.keys.manage': 'Manage integration API keys',
  },
  core: {
    'core.appointments.manage': 'Manage appointments, services and staff',
    'core.customers.read': 'Read contacts and their timeline',
    'core.customers.write': 'Create and edit contacts, activities and deals',
    'core.invoices.read': 'Read invoices',
    'core.invoices.issue': 'Create, issue, credit and submit invoices',
    'core.settings.manage': 'Manage business settings, modules, sidebar and integration keys',
  },
  cloud: {
    'cloud.read': 'Browse and download files',
    'cloud.write': 'Upload, rename, move and delete files and folders',
    'cloud.share': 'Share files outside the organisation',
  },
  hr: {
    'hr.clock': 'Clock in and out, file leave requests',
    'hr.employees.manage': 'Manage employees and schedules',
    'hr.leave.decide': 'Grant or refuse leave requests',
    'hr.compliance.manage': 'Acknowledge compliance alerts and export timesheets',
  },
  work: {
    'work.read': 'See work items',
    'work.write': 'Create, edit and delete work items',
    'work.integrations.manage':
      'Set and rotate the code-host webhook secret; manage chat channels and integration tokens',
    'chat.read': 'Read chat channels and their messages',
  },
} as const;

type Catalogue = typeof permissionCatalogue;
export type Permission = { [M in keyof Catalogue]: keyof Catalogue[M] }[keyof Catalogue];

export const allPermissions = Object.values(permissionCatalogue).flatMap((group) => Object.keys(group)) as Permission[];

export function isPermission(key: string): key is Permission {
  return (allPermissions as string[]).includes(key);
}

const readOnly = allPermissions.filter((k) => /\.read$/.test(k));

/** The three roles every organisation starts with. Owner always holds every permission. */
export const defaultRoles: { key: string; name: string; description: string; permissions: Permission[] }[] = [
  {
    key: 'owner',
    name: 'Owner',
    description: 'Full control, including billing and ownership',
    permissions: allPermissions,
  },
  {
    key: 'admin',
    name: 'Administrator',
    description: 'Manages members, billing, settings and every module; cannot grant ownership',
    permissions: allPermissions,
  },
  {
    key: 'member',
    name: 'Member',
    description: 'Uses the modules of the organisation',
    permissions: [
      ...readOnly.filter((k) => k !== 'org.members.read' && k !== 'billing.read'),
      'vr.play',
      'knowledge.write',
      'core.customers.write',
      'cloud.write',
      'hr.clock',
      'work.write',
    ],
  },
];
