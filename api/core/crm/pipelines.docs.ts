import { prose } from '../../http/docs';

export const renamePipelineReplaceStagesDoc = prose`
  stages is the new ordered list: listed ids are kept with their deals, stages without id are added, stages left out are
  removed (409 \`stage_has_deals\` while deals are in them).
`;

export const boardWeightedForecastDoc = prose`
  Each stage with its open deals and, per currency, the sum of their amounts, the weighted forecast round(sum ×
  probability / 100) and the count; totals per currency are the sums of the stages. Amounts in cents; won and lost deals
  are out of the board.
`;
