import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DialogActions from '@mui/material/DialogActions';
import BadgeIcon from '@mui/icons-material/Badge';
import { useTranslation } from 'react-i18next';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { LazyCorrespondentForm as CorrespondentForm } from './lazy-correspondent-form';

/** The signed-in correspondent id in the app bar; a click changes it or signs out. */
export function CorrespondentButton({ correspondentId }: { correspondentId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<BadgeIcon />}
        onClick={() => setOpen(true)}
        aria-label={t('correspondent.button', { id: correspondentId })}
      >
        <span style={{ fontFamily: 'monospace' }}>{correspondentId}</span>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="correspondent-dialog-title">
        <DialogTitle id="correspondent-dialog-title">{t('correspondent.dialogTitle')}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <CorrespondentForm
            current={correspondentId}
            submitLabel={t('correspondent.save')}
            onSaved={() => setOpen(false)}
          />
        </DialogContent>
        <DialogActions>
          <Button
            color="secondary"
            onClick={() => {
              saveCorrespondentId(null);
              setOpen(false);
            }}
          >
            {t('correspondent.signOut')}
          </Button>
          <Button onClick={() => setOpen(false)}>{t('correspondent.cancel')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
