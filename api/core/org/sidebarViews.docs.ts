import { prose } from '../../http/docs';

export const sidebarPreferencesViewCustomDoc = prose`
  Whether the caller has an arrangement of their own (false: empty lists, the role default or the catalogue applies)
`;

export const sidebarAccessViewSourceDoc = prose`
  Which layout arranged the items: the caller's preferences, the default of one of their roles, or the catalogue order
`;
