import type { Gated } from './access';

export interface SidebarEntry extends Gated {
  key: string;
  label: string;
  /** Section of the sidebar it belongs to. */
  section: 'workspace' | 'sales' | 'operations' | 'training' | 'settings';
  /** Path of the page in the app. */
  path: string;
}

/** Every sidebar entry of the suite, in default order: the module it belongs to and the permission it needs. */
export const sidebarCatalogue: readonly SidebarEntry[] = [
  { key: 'dashboard', label: 'Dashboard', section: 'workspace', path: '/dashboard', module: 'core', permission: null },
  { key: 'calendar', label: 'Calendar', section: 'workspace', path: '/calendar', module: 'core', permission: null },
  {
    key: 'appointments',
    label: 'Appointments',
    section: 'workspace',
    path: '/appointments',
    module: 'core',
    permission: null,
  },
  {
    key: 'media',
    label: 'Media library',
    section: 'workspace',
    path: '/media',
    module: 'core',
    permission: 'cloud.read',
  },
  {
    key: 'customers',
    label: 'Contacts',
    section: 'sales',
    path: '/customers',
    module: 'core',
    permission: 'core.customers.read',
  },
  { key: 'tasks', label: 'Tasks', section: 'sales', path: '/tasks', module: 'core', permission: 'core.customers.read' },
  { key: 'deals', label: 'Deals', section: 'sales', path: '/deals', module: 'core', permission: 'core.customers.read' },
  {
    key: 'invoices',
    label: 'Invoices',
    section: 'sales',
    path: '/invoices',
    module: 'core',
    permission: 'core.invoices.read',
  },
  { key: 'drive', label: 'Drive', section: 'operations', path: '/drive', module: 'cloud', permission: 'cloud.read' },
  {
    key: 'knowledge',
    label: 'Knowledge base',
    section: 'operations',
    path: '/knowledge',
    module: 'knowledge',
    permission: 'knowledge.read',
  },
  {
    key: 'hr.clock',
    label: 'Time clock',
    section: 'operations',
    path: '/hr/clock',
    module: 'rh',
    permission: 'hr.clock',
  },
  {
    key: 'hr.employees',
    label: 'Employees',
    section: 'operations',
    path: '/hr/employees',
    module: 'rh',
    permission: 'hr.employees.manage',
  },
  {
    key: 'hr.leave',
    label: 'Leave requests',
    section: 'operations',
    path: '/hr/leave',
    module: 'rh',
    permission: 'hr.leave.decide',
  },
  {
    key: 'vr.rooms',
    label: 'VR rooms',
    section: 'training',
    path: '/vr/rooms',
    module: 'vr',
    permission: 'vr.rooms.read',
  },
  {
    key: 'vr.reports',
    label: 'VR reports',
    section: 'training',
    path: '/vr/reports',
    module: 'vr',
    permission: 'vr.reports.read',
  },
  {
    key: 'settings.business',
    label: 'Business',
    section: 'settings',
    path: '/settings/business',
    module: 'core',
    permission: 'core.settings.manage',
  },
  {
    key: 'settings.services',
    label: 'Services and staff',
    section: 'settings',
    path: '/settings/services',
    module: 'core',
    permission: 'core.appointments.manage',
  },
  {
    key: 'settings.members',
    label: 'Members and roles',
    section: 'settings',
    path: '/settings/members',
    module: null,
    permission: 'org.members.read',
  },
  {
    key: 'settings.billing',
    label: 'Subscription',
    section: 'settings',
    path: '/settings/billing',
    module: null,
    permission: 'billing.read',
  },
];

export const sidebarKeys = sidebarCatalogue.map((e) => e.key);
