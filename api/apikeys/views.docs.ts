import { prose } from '../http/docs';

/** OpenAPI descriptions of the API key presenters (views.ts). */

export const CREATED_BY = prose`
  The member who created the key: it acts within their permissions, and stops working when they leave the organisation
`;

export const SEES_UNPUBLISHED = prose`
  Knowledge keys: whether the key reads unpublished articles (drafts, reviews, archived ones), as its creator could when
  creating it (knowledge.write); false for other modules
`;
