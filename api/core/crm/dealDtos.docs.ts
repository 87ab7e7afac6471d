import { prose } from '../../http/docs';

export const updatePipelineBodyStagesDoc = prose`
  The new list of stages in order: listed ids are kept, new ones added, missing ones removed (409 stage_has_deals while
  they hold deals)
`;
