import { Suspense, lazy, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import BadgeIcon from '@mui/icons-material/Badge';
import { useTranslation } from 'react-i18next';

// The dialog (with the form, zod and the contract) is fetched when the button is used: a signed-in teller rarely
// opens it, and it stays out of the first load (budget: docs/compression-and-caching.md).
const CorrespondentDialog = lazy(() =>
  import('./correspondent-dialog').then((module) => ({ default: module.CorrespondentDialog })),
);

/** The signed-in correspondent id in the app bar; a click changes it or signs out. */
export function CorrespondentButton({
  correspondentId,
  compact = false,
}: {
  correspondentId: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* On a phone the icon alone (the id is in its name), so the app bar stays one line. */}
      {compact ? (
        <IconButton
          color="inherit"
          onClick={() => setOpen(true)}
          aria-label={t('correspondent.button', { id: correspondentId })}
        >
          <BadgeIcon />
        </IconButton>
      ) : (
        <Button
          color="inherit"
          startIcon={<BadgeIcon />}
          onClick={() => setOpen(true)}
          aria-label={t('correspondent.button', { id: correspondentId })}
        >
          <span style={{ fontFamily: 'monospace' }}>{correspondentId}</span>
        </Button>
      )}
      {open && (
        <Suspense fallback={<LinearProgress aria-label={t('correspondent.loadingForm')} />}>
          <CorrespondentDialog correspondentId={correspondentId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
