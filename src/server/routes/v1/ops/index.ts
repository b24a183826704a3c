import { accountOperations } from './accounts';
import { changeOperations } from './changes';
import { changeQualityOperations } from './change-quality';
import { changeFlowOperations } from './change-flow';
import { opsRoutes } from './ops-operation';
import { qualityOperations } from './quality';
import { recordOperations } from './records';
import { reportOperations } from './reports';
import { sessionOperations } from './session';
import { versionOperations } from './versions';

/**
 * Every operation of the operations desk (/v1/ops), in the order of the API reference: the routes, the OpenAPI
 * document (openapi.ts) and the tests are made from this list.
 */
export const OPS_OPERATIONS = [
  ...sessionOperations,
  ...accountOperations,
  ...changeOperations,
  ...versionOperations,
  ...changeQualityOperations,
  ...changeFlowOperations,
  ...qualityOperations,
  ...recordOperations,
  ...reportOperations,
];

/** The ops routes; registered under the `/v1/ops` prefix, behind the ops-auth plugin (app.ts). */
export const opsV1Routes = opsRoutes(OPS_OPERATIONS);
