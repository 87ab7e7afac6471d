import { prose } from '../../http/docs';

export const editDealDoc = prose`
  Title, customer, amount, currency, owner, expected close date, externalId; the stage and status change through move,
  win, lose and reopen.
`;

export const dealRulesDoc = prose`
  States: open, won, lost. open → move (another stage of its pipeline; the same stage changes nothing), win → won, lose
  (reason) → lost; won or lost → reopen → open (same stage). Anything else is 409 \`invalid_transition\`. Every change
  is kept in the history with time and actor.
`;

export const createDealDoc = prose`
  Starts open in stageId (its pipeline becomes the deal's). ${dealRulesDoc}
`;
