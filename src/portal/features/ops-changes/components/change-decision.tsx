import { useState, type FormEventHandler, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Button, { type ButtonProps } from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { personOf, type OpsRole } from '../../../../contract/ops-auth';
import {
  approveBody,
  rejectBody,
  type ApproveBody,
  type ChangeDetail,
  type RejectBody,
} from '../../../../contract/ops-changes';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { OpsSection } from '../../../components/ui/ops-section';
import { fieldHelp } from '../../../lib/field-slots';
import { formatNumber, translateRule } from '../../../lib/i18n';
import { useApproveChange, useDiscardChange, useRejectChange } from '../api/decide-change';
import { StaleAnswer, isStaleAnswer } from './stale-answer';

type ApproveValues = z.input<typeof approveBody>;
type RejectValues = z.input<typeof rejectBody>;

/**
 * What can be done with a staged change, by whom: a checker who did not stage it approves (with a comment;
 * over the removal guard only with the explicit confirmation) or rejects (with a reason); its maker may
 * discard it. The maker of a change never approves it (four eyes): the screen says so, and the API refuses (also
 * an approver the maker created, set the password of or made a checker: the API's answer says so).
 */
export function ChangeDecision({ change, user }: { change: ChangeDetail; user: { name: string; roles: OpsRole[] } }) {
  const { t } = useTranslation();
  const open = change.status === 'staged' || change.status === 'stale';
  if (!open) return null;
  // The person, not the name: a change staged with a key issued to this account's holder is theirs too.
  const own = personOf(change.stagedBy) === personOf(user.name);
  const checker = user.roles.includes('checker');
  return (
    <OpsSection id="decision-title" title={t('ops.decision.title')} outlined>
      {/* Said to everyone who opens it, the maker first: the file must be corrected before anyone can publish. */}
      {!change.approvable && change.status === 'staged' && (
        <Alert severity="error" role="status">
          {t('ops.decision.notApprovable')}
        </Alert>
      )}
      {own && (
        <Alert severity="info" role="status" data-testid="own-change">
          {t('ops.decision.ownChange')}
        </Alert>
      )}
      {!own && !checker && (
        <Alert severity="info" role="status">
          {t('ops.decision.checkerOnly')}
        </Alert>
      )}
      {checker && !own && <ApproveForm change={change} />}
      {checker && !own && <RejectForm change={change} />}
      {(own || user.roles.includes('admin')) && <DiscardButton change={change} />}
    </OpsSection>
  );
}

function ApproveForm({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  const approve = useApproveChange();
  const flagged = change.diff?.guard.flagged ?? false;
  const { register, handleSubmit, watch } = useForm<ApproveValues, unknown, ApproveBody>({
    resolver: zodResolver(approveBody),
    defaultValues: { comment: '', confirmRemovals: false },
  });
  const confirmed = watch('confirmRemovals');
  return (
    <DecisionForm
      label={t('ops.decision.approve')}
      onSubmit={handleSubmit((body) => approve.mutate({ id: change.id, body }))}
      submit={{
        variant: 'contained',
        color: 'success',
        loading: approve.isPending,
        disabled: (flagged && !confirmed) || (!change.approvable && change.status === 'staged'),
      }}
    >
      {flagged && (
        <Alert severity="warning" role="status" data-testid="guard-flag">
          {t('ops.decision.guard', {
            flags: change
              .diff!.guard.flags.map((flag) =>
                t('ops.decision.guardFlag', {
                  scope: flag.country ?? t(`ops.kinds.${change.kind}`),
                  removed: formatNumber(flag.removed),
                  served: formatNumber(flag.served),
                  share: Math.round(flag.share * 100),
                }),
              )
              .join('; '),
          })}
        </Alert>
      )}
      <TextField {...register('comment')} label={t('ops.decision.comment')} multiline minRows={2} />
      {flagged && (
        <FormControlLabel
          control={<Checkbox {...register('confirmRemovals')} />}
          label={t('ops.decision.confirmRemovals')}
        />
      )}
      <StaleAnswer error={approve.error} />
      {approve.error && !isStaleAnswer(approve.error) && <ProblemAlert error={approve.error} />}
    </DecisionForm>
  );
}

function RejectForm({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  const reject = useRejectChange();
  const { register, handleSubmit, formState } = useForm<RejectValues, unknown, RejectBody>({
    resolver: zodResolver(rejectBody),
    defaultValues: { reason: '' },
  });
  return (
    <DecisionForm
      label={t('ops.decision.reject')}
      onSubmit={handleSubmit((body) => reject.mutate({ id: change.id, body }))}
      submit={{ variant: 'outlined', color: 'error', loading: reject.isPending }}
    >
      <TextField
        {...register('reason')}
        label={t('ops.decision.reason')}
        required
        multiline
        minRows={2}
        {...fieldHelp(formState.errors.reason, ' ', (wrong) =>
          wrong.type === 'too_small' ? t('ops.decision.reasonRequired') : translateRule(wrong.message),
        )}
      />
      {reject.error && <ProblemAlert error={reject.error} />}
    </DecisionForm>
  );
}

type DecisionFormProps = { label: string; onSubmit: FormEventHandler; submit: ButtonProps; children: ReactNode };

/** A decision's form, named by its submit button's text. */
function DecisionForm({ label, onSubmit, submit, children }: DecisionFormProps) {
  return (
    <Stack component="form" noValidate spacing={1.5} aria-label={label} onSubmit={onSubmit}>
      {children}
      <div>
        <Button type="submit" {...submit}>
          {label}
        </Button>
      </div>
    </Stack>
  );
}

function DiscardButton({ change }: { change: ChangeDetail }) {
  const { t } = useTranslation();
  const discard = useDiscardChange();
  const [asked, setAsked] = useState(false);
  return (
    <Stack spacing={1}>
      {discard.error && <ProblemAlert error={discard.error} />}
      {asked ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography variant="body2">{t('ops.decision.discardSure')}</Typography>
          <Button color="error" loading={discard.isPending} onClick={() => discard.mutate({ id: change.id })}>
            {t('ops.decision.discardYes')}
          </Button>
          <Button onClick={() => setAsked(false)}>{t('ops.common.cancel')}</Button>
        </Stack>
      ) : (
        <div>
          <Button onClick={() => setAsked(true)}>{t('ops.decision.discard')}</Button>
        </div>
      )}
    </Stack>
  );
}
