import { z } from 'zod';
import { problem } from './lookups';
import { changeSummary, diffCounts } from './ops-changes';

// A change flow that tells the truth: what the desk answers around a change besides its report and difference —
// a stale change compared again (recheck, and the 409 of an approval that re-diffed it), a change identical to
// what is served refused, the other pending changes of an overlapping scope, comments, and how many changes
// wait for the signed-in checker. Shared by the desk (src/server/desk/change-flow.ts), its routes and the portal.

/** The failure of a change whose file is what is served already: nothing to publish, never approvable. */
export const IDENTICAL_TO_SERVED =
  'The file is identical to the data served now (0 added, 0 changed, 0 removed): there is nothing to publish.';

export const COMMENT_MAX_LENGTH = 2000;

/** A comment's text: plain text (kept and answered as typed, never HTML), 1–2,000 characters once trimmed. */
export const commentBody = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, 'a comment needs some text')
    .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`)
    // Line breaks and tabs are text; other control characters are not.
    // eslint-disable-next-line no-control-regex
    .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text), 'must not hold control characters')
    .meta({ description: 'Plain text, at most 2,000 characters; answered as written, never rendered as HTML.' }),
});
export type CommentBody = z.infer<typeof commentBody>;

export const changeComment = z.object({
  id: z.number().int(),
  changeId: z.string(),
  author: z.string(),
  via: z.string(),
  at: z.string().meta({ description: 'ISO 8601 time (UTC).' }),
  text: z.string(),
});
export type ChangeComment = z.infer<typeof changeComment>;

/** A change's comments, oldest first (a conversation reads top down). */
export const changeComments = z.object({ data: z.array(changeComment) });
export type ChangeComments = z.infer<typeof changeComments>;

/** The changes waiting for the signed-in checker: staged (or stale), not theirs, without problems. */
export const waitingChanges = z.object({
  count: z.number().int().meta({ description: 'Zero for an account without the checker role.' }),
});
export type WaitingChanges = z.infer<typeof waitingChanges>;

/** The other pending changes (staged or stale) of the same kind whose countries overlap this change's. */
export const overlappingChanges = z.object({ data: z.array(changeSummary) });
export type OverlappingChanges = z.infer<typeof overlappingChanges>;

export const STALE_CHANGE_TYPE = 'urn:problem:stale-change';

/**
 * The 409 of an approval when another change was published since this one was diffed: the engine computed its
 * difference again against what is served now; `change` is the change as it stands (staged with the new
 * difference, or failed when it is now identical to what is served), `counts` the new difference's counts.
 */
export const staleChangeProblem = problem.extend({
  type: z.literal(STALE_CHANGE_TYPE),
  change: changeSummary,
  counts: diffCounts.nullable(),
  diffedFrom: z.string().meta({ description: 'The data version the change had been diffed against.' }),
  servedNow: z.string().meta({ description: 'The data version it has been diffed against now.' }),
});
export type StaleChangeProblem = z.infer<typeof staleChangeProblem>;

/** The approval's 409 as documented: a problem, with the re-diff's members when it is a stale change's. */
export const approveConflict = problem.extend({
  change: changeSummary.optional(),
  counts: diffCounts.nullable().optional(),
  diffedFrom: z.string().optional(),
  servedNow: z.string().optional(),
});
