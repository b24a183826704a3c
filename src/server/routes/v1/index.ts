import { extensionOperations } from './extensions';
import { lookupOperations } from './lookups';
import { referenceOperations } from './reference';
import { suggestionOperations } from './suggestions';
import { operationRoutes } from './operation';

/**
 * Every /v1 operation, in the order of the API reference: the routes (`v1Routes`), the OpenAPI document
 * (openapi.ts), the audit log's known parameters and the tests (property suite, OpenAPI test) are all made from
 * this list. A new endpoint is one `defineOperation` in one of these files (docs/architecture.md, "Recipes").
 */
export const OPERATIONS = [
  ...lookupOperations,
  ...referenceOperations,
  ...extensionOperations,
  ...suggestionOperations,
];

export type OperationPath = (typeof OPERATIONS)[number]['path'];

/** The operations' routes; registered under the `/v1` prefix, behind the access check (app.ts). */
export const v1Routes = operationRoutes(OPERATIONS);
