import { useId, useState } from 'react';
import { useLocation } from 'wouter';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, type ChangeKind } from '../../../../contract/ops-changes';
import type { ColumnMapping as Mapping, DetectedLayout, FileReading } from '../../../../contract/ops-files';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { ApiError } from '../../../lib/api-client';
import { useDetectLayout } from '../api/detect-layout';
import { useStageChange } from '../api/stage-change';
import { ColumnMapping } from './column-mapping';
import { ScopeChoice, WHOLE_KIND, scopeOf } from './scope-choice';

/**
 * Stages a change: the kind, the file (CSV or XLSX; JSON as the import command takes it), then the upload with
 * its progress. A header the server does not recognise is mapped to fields first. Once uploaded, the change's
 * own screen follows validation and comparison (its second progress bar).
 */
export function UploadForm() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const fileId = useId();
  const [kind, setKind] = useState<ChangeKind>('branches');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const [detected, setDetected] = useState<DetectedLayout | null>(null);
  const [scopeChoice, setScopeChoice] = useState(WHOLE_KIND);
  const scope = scopeOf(scopeChoice);
  const detect = useDetectLayout();
  const stage = useStageChange();

  const upload = (reading?: FileReading) => {
    if (!file) return;
    setDetected(null);
    setSent(0);
    stage.mutate(
      { kind, file, reading, scope: scope ?? undefined, onProgress: setSent },
      { onSuccess: (change) => navigate(`/changes/${change.id}`) },
    );
  };

  const start = async () => {
    if (!file) return;
    try {
      const layout = await detect.mutateAsync({ kind, file });
      if (layout.layout === 'mapped') return setDetected(layout);
      upload({ layout: layout.layout });
    } catch (error) {
      // A server without layout detection reads the import format only: upload as it is.
      if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return upload();
      throw error;
    }
  };

  const busy = detect.isPending || stage.isPending;
  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <FormControl>
        <FormLabel id="kind-label">{t('ops.upload.kind')}</FormLabel>
        <RadioGroup
          aria-labelledby="kind-label"
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as ChangeKind);
            setScopeChoice(WHOLE_KIND);
          }}
          row
        >
          {CHANGE_KINDS.map((value) => (
            <FormControlLabel key={value} value={value} control={<Radio />} label={t(`ops.upload.kinds.${value}`)} />
          ))}
        </RadioGroup>
      </FormControl>
      <ScopeChoice kind={kind} value={scopeChoice} onChange={setScopeChoice} />
      <div>
        <Typography component="label" htmlFor={fileId} variant="body1" sx={{ display: 'block', mb: 0.5 }}>
          {t('ops.upload.file')}
        </Typography>
        <Box
          component="input"
          id={fileId}
          type="file"
          accept=".csv,.xlsx,.json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-describedby={`${fileId}-hint`}
          onChange={(event: React.ChangeEvent<HTMLInputElement>) => {
            setFile(event.target.files?.[0] ?? null);
            setDetected(null);
            stage.reset();
            detect.reset();
          }}
          sx={{ maxWidth: '100%' }}
        />
        <Typography id={`${fileId}-hint`} variant="body2" color="text.secondary">
          {t('ops.upload.fileHint')}
        </Typography>
      </div>
      {!detected && (
        <Box>
          <Button variant="contained" disabled={!file || scope === null} loading={busy} onClick={() => void start()}>
            {t('ops.upload.submit')}
          </Button>
        </Box>
      )}
      {detected && (
        <ColumnMapping
          detected={detected}
          onCancel={() => setDetected(null)}
          onMapped={(mapping: Mapping, country?: string) => upload({ layout: 'mapped', mapping, country })}
        />
      )}
      {stage.isPending && (
        <div>
          <Typography id="upload-progress-label" variant="body2">
            {t('ops.upload.sending', { percent: Math.round(sent * 100) })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={Math.round(sent * 100)}
            aria-labelledby="upload-progress-label"
            data-testid="upload-progress"
          />
        </div>
      )}
      {(stage.error ?? detect.error) && <ProblemAlert error={stage.error ?? detect.error} />}
      {stage.isSuccess && (
        <Alert severity="success" role="status">
          {t('ops.upload.sent')}
        </Alert>
      )}
    </Stack>
  );
}
