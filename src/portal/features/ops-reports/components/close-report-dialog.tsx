import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { REPORT_NOTE_MAX } from '../../../../contract/reports';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { useCloseReport } from '../api/close-report';

const TITLE_ID = 'close-report-title';

/** Closes one report: the change (or version) that fixed the record, and an optional note. */
export function CloseReportDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [fixedBy, setFixedBy] = useState('');
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const close = useCloseReport();
  const missing = fixedBy.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (missing || close.isPending) return;
    close.mutate({ id, fixedBy: fixedBy.trim(), note: note.trim() || undefined }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={TITLE_ID} fullWidth maxWidth="sm">
      <DialogTitle id={TITLE_ID}>{t('ops.reports.closeTitle', { id })}</DialogTitle>
      <Box component="form" noValidate onSubmit={submit}>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <TextField
            label={t('ops.reports.fixedBy')}
            name="fixedBy"
            required
            autoFocus
            value={fixedBy}
            onChange={(event) => setFixedBy(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && missing}
            helperText={touched && missing ? t('ops.reports.fixedByRequired') : t('ops.reports.fixedByHelp')}
            slotProps={{ htmlInput: { maxLength: 200, spellCheck: false, autoCapitalize: 'none' } }}
          />
          <TextField
            label={t('ops.reports.closeNote')}
            name="closeNote"
            multiline
            minRows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            slotProps={{ htmlInput: { maxLength: REPORT_NOTE_MAX } }}
          />
          {close.error && <ProblemAlert error={close.error} />}
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose}>{t('ops.reports.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={close.isPending}>
            {t('ops.reports.confirmClose')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
