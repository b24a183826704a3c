import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DialogActions from '@mui/material/DialogActions';
import { useTranslation } from 'react-i18next';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { CorrespondentForm } from './correspondent-form';

/** Change the signed-in correspondent id, or sign out: its own chunk, fetched when the app bar's button is used. */
export function CorrespondentDialog({ correspondentId, onClose }: { correspondentId: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} aria-labelledby="correspondent-dialog-title">
      <DialogTitle id="correspondent-dialog-title">{t('correspondent.dialogTitle')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <CorrespondentForm current={correspondentId} submitLabel={t('correspondent.save')} onSaved={onClose} />
      </DialogContent>
      <DialogActions>
        <Button
          color="secondary"
          onClick={() => {
            saveCorrespondentId(null);
            onClose();
          }}
        >
          {t('correspondent.signOut')}
        </Button>
        <Button onClick={onClose}>{t('correspondent.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
