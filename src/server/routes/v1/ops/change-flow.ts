import type { FastifyReply, FastifyRequest } from 'fastify';
import { changeDetail, changeSummary } from '../../../../contract/ops-changes';
import {
  STALE_CHANGE_TYPE,
  changeComments,
  changeComment,
  commentBody,
  overlappingChanges,
  waitingChanges,
  type StaleChangeProblem,
} from '../../../../contract/ops-flow';
import { ChangeFlow, countsInWords } from '../../../desk/change-flow';
import { StaleChangeError } from '../../../desk/desk';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES } from '../../../problems';
import { CHANGE_404, changeId, defineOpsOperation, readChange } from './ops-operation';

// The change flow over HTTP (desk/change-flow.ts): compare a stale change again, its comments, the other pending
// changes of an overlapping scope, how many changes wait for the signed-in checker, and the 409 of an approval
// that re-diffed the change, naming what happened with the new difference's counts.

/**
 * The answer to an approval refused because another change was published since this one was diffed (the engine
 * diffed it again): a problem+json naming that, with the change as it stands and the new counts. Anything else
 * is thrown on.
 */
export function answerStale(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!(error instanceof StaleChangeError)) throw error;
  const change = changeSummary.parse(error.change);
  const now =
    change.status === 'failed'
      ? `it is now identical to the data served (${countsInWords(change.diff)}) and cannot be approved`
      : `${countsInWords(change.diff)} — review it, then approve again`;
  const body: StaleChangeProblem = {
    type: STALE_CHANGE_TYPE,
    title: 'Difference computed again',
    status: PROBLEM_TYPES.conflict.status,
    detail: `Another change was published since this change was diffed; the difference was computed again against the data served now: ${now}.`,
    correlationId: request.correlationId,
    errors: [],
    change,
    counts: change.diff?.counts ?? null,
    diffedFrom: error.expectedVersion,
    servedNow: error.actualVersion,
  };
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

export const changeFlowOperations = [
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes/{id}/recheck',
    operationId: 'recheckChange',
    summary: 'Compare a stale change again (maker or checker)',
    description:
      'A change diffed against a data version no longer served (status stale: re-check) is diffed again against what is served now, in the background: 202 with the change (validating); poll GET /v1/ops/changes/{id}. It comes back staged with its new difference, or failed when it is now identical to what is served.',
    access: 'signedIn',
    params: changeId,
    response: changeDetail,
    status: 202,
    errors: [CHANGE_404, { status: 409, description: 'Conflict: the change is not stale (nothing to compare again).' }],
    async handle({ app, actor, params }) {
      await app.desk.startRecheck(actor, params.id);
      return app.desk.get(params.id);
    },
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/comments',
    operationId: 'listChangeComments',
    summary: 'The comments on a change, oldest first',
    description: 'Who wrote each, when, and its text as written (plain text: a client shows it as text, never HTML).',
    response: changeComments,
    async handle({ app, params }) {
      await app.desk.get(params.id);
      return { data: await new ChangeFlow(app.store).comments(params.id) };
    },
  }),
  defineOpsOperation({
    method: 'POST',
    path: '/v1/ops/changes/{id}/comments',
    operationId: 'addChangeComment',
    summary: 'Comment on a change (maker or checker)',
    description:
      'Plain text, 1–2,000 characters (trimmed; line breaks kept, other control characters refused). Kept with the change for good and written to the audit trail.',
    access: 'signedIn',
    params: changeId,
    body: commentBody,
    response: changeComment,
    status: 201,
    errors: [CHANGE_404],
    async handle({ app, actor, params, body }) {
      await app.desk.get(params.id);
      return new ChangeFlow(app.store).addComment(actor, params.id, body);
    },
  }),
  defineOpsOperation({
    ...readChange,
    path: '/v1/ops/changes/{id}/overlapping',
    operationId: 'listOverlappingChanges',
    summary: 'The other pending changes of an overlapping scope',
    description:
      'Staged or stale changes of the same kind sharing a country with this one (head offices and agents: every pending change of the kind); publishing either makes the other stale.',
    response: overlappingChanges,
    async handle({ app, params }) {
      const change = await app.desk.get(params.id);
      const ids = await new ChangeFlow(app.store).overlapping(change);
      const others = await Promise.all(ids.map((id) => app.desk.get(id)));
      return { data: others.map((other) => changeSummary.parse(other)) };
    },
  }),
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/changes/waiting',
    operationId: 'countWaitingChanges',
    summary: 'How many changes wait for the signed-in checker',
    description:
      'Staged or stale changes without problems that another person staged (four eyes): what this checker can decide. Zero without the checker role.',
    access: 'signedIn',
    response: waitingChanges,
    async handle({ app, actor }) {
      return { count: await new ChangeFlow(app.store).waitingFor(actor) };
    },
  }),
];
