import './report-i18n';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '../../../contract/reports';
import { CopyButton } from '../../components/ui/copy-button';
import { ProblemAlert } from '../../components/ui/problem-alert';
import { ApiError } from '../../lib/api-client';
import { useSendReport } from './api/send-report';
import { subjectName, subjectRecord, type ReportSubject } from './report-subject';

const TITLE_ID = 'report-problem-title';

/**
 * "Report a problem with this record": a reason and a short note, sent to the operations desk with the teller's
 * correspondent id (POST /v1/reports); the answer's reference is shown to quote later. Its own chunk, fetched
 * when a teller opens it.
 */
export default function ReportDialog({ subject, onClose }: { subject: ReportSubject; onClose: () => void }) {
  const { t } = useTranslation();
  const record = subjectRecord(subject);
  const name = subjectName(subject);
  const [reason, setReason] = useState<ReportReason>('wrong-routing-number');
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  const send = useSendReport();
  const sent = send.data;
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (sent) confirmation.current?.focus();
  }, [sent]);

  const trimmed = note.trim();
  const noteError =
    trimmed.length === 0
      ? t('tellerReport.noteRequired')
      : note.length > REPORT_NOTE_MAX
        ? t('tellerReport.noteTooLong', { max: REPORT_NOTE_MAX })
        : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (noteError || send.isPending) return;
    send.mutate({ kind: record.kind, key: record.key, reason, note: trimmed });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={TITLE_ID} fullWidth maxWidth="sm" data-testid="report-dialog">
      <DialogTitle id={TITLE_ID}>{t('tellerReport.title')}</DialogTitle>
      {sent ? (
        <>
          <DialogContent>
            <Alert severity="success" role="status" ref={confirmation} tabIndex={-1} data-testid="report-confirmation">
              <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
                {t('tellerReport.sent', { id: sent.id })}
              </Box>
              <CopyButton value={sent.id} label={t('tellerReport.sent', { id: sent.id })} />
              <div>{t('tellerReport.sentHelp')}</div>
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('tellerReport.close')}</Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={submit}>
          <DialogContent sx={{ display: 'grid', gap: 2 }}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {t('tellerReport.record', { name, code: record.code ?? '—' })}
            </Typography>
            <FormControl>
              <FormLabel id="report-reason-label">{t('tellerReport.reason')}</FormLabel>
              <RadioGroup
                aria-labelledby="report-reason-label"
                name="reason"
                value={reason}
                onChange={(event) => setReason(event.target.value as ReportReason)}
              >
                {REPORT_REASONS.map((value) => (
                  <FormControlLabel
                    key={value}
                    value={value}
                    control={<Radio size="small" />}
                    label={t(`tellerReport.reasons.${value}`)}
                  />
                ))}
              </RadioGroup>
            </FormControl>
            <TextField
              label={t('tellerReport.note')}
              name="note"
              multiline
              minRows={3}
              required
              value={note}
              onChange={(event) => setNote(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && noteError !== null}
              helperText={
                touched && noteError
                  ? noteError
                  : t('tellerReport.noteHelp', { count: note.length, max: REPORT_NOTE_MAX })
              }
              slotProps={{ htmlInput: { 'data-testid': 'report-note' } }}
            />
            {send.error instanceof ApiError && send.error.kind === 'tooManyRequests' ? (
              <Alert severity="warning" role="alert">
                {t('tellerReport.tooMany')}
              </Alert>
            ) : (
              send.error && <ProblemAlert error={send.error} />
            )}
          </DialogContent>
          <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Button onClick={onClose}>{t('tellerReport.cancel')}</Button>
            <Button type="submit" variant="contained" disabled={send.isPending}>
              {send.isPending ? t('tellerReport.sending') : t('tellerReport.send')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
