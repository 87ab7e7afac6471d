import { prose } from '../../http/docs';
import { CSV_FORMULA_NOTE } from '../../../lib/csv';

export const exportDoc = prose`
  Streamed (chunked) in id order, read in batches so any book size exports in flat memory. format=jsonl (default): one
  JSON object per line with \`recordType\` customer, relation or deal (all three without \`resource\`). format=csv: one
  resource (default customers) with a header row; lists are joined with \`;\`, structured values (e-mails, addresses,
  custom) are JSON. ${CSV_FORMULA_NOTE}
`;
