import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { COMMENT_MAX_LENGTH, commentBody, type CommentBody } from '../../../../contract/ops-flow';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { formatTime } from '../../../components/ui/ops-format';
import { translateRule } from '../../../lib/i18n';
import { useAddComment, useComments } from '../api/change-flow';

/**
 * The conversation about a change: every comment with who wrote it and when, oldest first, as plain text (React
 * writes it as text: markup in a comment is shown, never run); makers and checkers add one.
 */
export function ChangeComments({ changeId, user }: { changeId: string; user: { roles: OpsRole[] } }) {
  const { t } = useTranslation();
  const query = useComments(changeId);
  const comments = query.data?.data ?? [];
  const mayComment = user.roles.some((role) => role === 'maker' || role === 'checker');
  return (
    <OpsSection id="comments-title" title={t('ops.flow.commentsTitle')} outlined>
      <OpsQueryState query={query} />
      {query.data && comments.length === 0 && <Typography variant="body2">{t('ops.flow.commentsNone')}</Typography>}
      {comments.length > 0 && (
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }} aria-labelledby="comments-title">
          {comments.map((comment) => (
            <li key={comment.id} data-testid="comment">
              <Typography variant="caption" component="p" color="text.secondary" data-testid="comment-by">
                {t('ops.flow.commentBy', { author: comment.author, at: formatTime(comment.at) })}
              </Typography>
              <Typography
                variant="body2"
                sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                data-testid="comment-text"
              >
                {comment.text}
              </Typography>
            </li>
          ))}
        </Stack>
      )}
      {mayComment && <CommentForm changeId={changeId} />}
    </OpsSection>
  );
}

function CommentForm({ changeId }: { changeId: string }) {
  const { t } = useTranslation();
  const add = useAddComment(changeId);
  const { register, handleSubmit, formState, watch, reset } = useForm<CommentBody>({
    resolver: zodResolver(commentBody),
    defaultValues: { text: '' },
  });
  const left = COMMENT_MAX_LENGTH - (watch('text')?.length ?? 0);
  const error = formState.errors.text;
  return (
    <Stack
      component="form"
      noValidate
      spacing={1.5}
      aria-label={t('ops.flow.commentLabel')}
      onSubmit={handleSubmit((body) => add.mutate(body, { onSuccess: () => reset({ text: '' }) }))}
    >
      <TextField
        {...register('text')}
        label={t('ops.flow.commentLabel')}
        multiline
        minRows={2}
        error={Boolean(error)}
        slotProps={{ htmlInput: { maxLength: COMMENT_MAX_LENGTH } }}
        helperText={
          error
            ? error.type === 'too_small'
              ? t('ops.flow.commentEmpty')
              : translateRule(error.message)
            : t('ops.flow.commentHelp', { max: COMMENT_MAX_LENGTH, left: Math.max(0, left) })
        }
      />
      {add.error && <ProblemAlert error={add.error} />}
      <div>
        <Button type="submit" variant="outlined" loading={add.isPending}>
          {t('ops.flow.commentSend')}
        </Button>
      </div>
    </Stack>
  );
}
