import { Suspense, lazy, useState } from 'react';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
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
    <>
      <Button
        size="small"
        color="inherit"
        aria-label={t('common.reportProblemFor', { name })}
        onClick={() => setOpen(true)}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {t('common.reportProblem')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog subject={subject} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
