import { prose } from '../../http/docs';

export const currencyTotalViewWeightedDoc = prose`
  Weighted forecast, cents: per stage round(amount × probability / 100), in total the sum of the stages
`;
