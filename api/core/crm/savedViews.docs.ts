import { prose } from '../../http/docs';

export const savedViewsDoc = prose`
  Saved views of the list: its filters, a sort and the columns shown. A member's own views are theirs alone
  (another member's view answers 404, to an administrator too); shared views are seen by every member and created,
  edited and deleted by holders of core.settings.manage (403 otherwise). Apply one with \`?view=<id>\` on the list
  route: the same items as the view's filters and sort given explicitly; a filter or sort of the request replaces
  the view's. 409 \`view_name_taken\`: one name per list among your views, and among the shared ones.
`;
