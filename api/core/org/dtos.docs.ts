import { prose } from '../../http/docs';

export const vatNumberDoc = prose`
  Intra-community VAT number (spaces allowed; stored upper-case without them). A French one must match the SIREN.
`;

export const publicSlugDoc = prose`
  Storefront address: 3 to 63 letters, digits or hyphens (stored lower-case), unique across the service (409
  \`slug_taken\`), reserved words refused. null frees it.
`;
