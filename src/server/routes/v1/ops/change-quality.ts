import { changeQuality } from '../../../../contract/ops-quality';
import { deskDbOf } from '../../../desk/db';
import { readChangeQuality } from '../../../desk/staged-quality';
import { defineOpsOperation, readChange } from './ops-operation';

// The quality findings a staged change would add to what is served (desk/staged-quality.ts), for the change page:
// the checker sees them before approving.

export const changeQualityOperations = [
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/quality',
    operationId: 'getChangeQuality',
    summary: 'The quality findings the change would add',
    description:
      'The data-quality checks (GET /v1/ops/quality) run on what would be served if the change were approved, less the findings of what is served now: each check with new findings, its count and first 20, each finding with its record key. computed false while the change is validating or when it has no difference.',
    response: changeQuality,
    async handle({ app, params }) {
      await app.desk.get(params.id);
      return readChangeQuality(deskDbOf(app.store), params.id);
    },
  }),
];
