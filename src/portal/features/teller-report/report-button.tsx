import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogButton } from '../../components/ui/dialog-button';
import type { ReportSubject } from './report-subject';

// The dialog (its form, texts and the report's contract) is its own chunk, fetched when a teller opens it: the
// teller's first load carries only this button (docs/compression-and-caching.md).
const ReportDialog = lazy(() => import('./report-dialog'));

/** "Report a problem" for a branch or an agent: opens the report dialog over the screen. */
export function ReportButton({ subject }: { subject: ReportSubject }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const name = subject.kind === 'branch' ? subject.branch.branchName : subject.agent.agentName;
  return (
    <DialogButton
      color="inherit"
      aria-label={t('common.reportProblemFor', { name })}
      open={open}
      onOpen={() => setOpen(true)}
      dialog={<ReportDialog subject={subject} onClose={() => setOpen(false)} />}
    >
      {t('common.reportProblem')}
    </DialogButton>
  );
}
