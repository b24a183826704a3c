import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { RecordPage } from '../../../../contract/ops-records';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { readableKey } from '../../../lib/links';
import { useRecord } from '../api/get-record';
import { RecordFieldList } from './record-fields';
import { changedFields, editsOf, formValuesOf } from './record-form-schema';
import { RecordForm } from './record-form';
import { RecordHistory } from './record-history';
import { RemoveRecord } from './remove-record';

/** A record's name as its kind holds it. */
export const recordName = (page: RecordPage) => {
  const fields = page.record ?? page.history[0]?.after ?? page.history[0]?.before ?? {};
  return fields.branchName ?? fields.agentName ?? fields.name ?? page.key;
};

/**
 * One published record: every field as served (or the version that removed it), a maker's change or removal of
 * it without a file, and its whole life, newest first.
 */
export function RecordScreen({
  kind,
  recordKey,
  user,
  reports,
}: {
  kind: ChangeKind;
  recordKey: string;
  user: { name: string; roles: OpsRole[] };
  /** The tellers' reports about this record (another feature's, composed by the app), below its fields. */
  reports?: ReactNode;
}) {
  const { t } = useTranslation();
  const query = useRecord(kind, recordKey);
  const [editing, setEditing] = useState(false);
  const page = query.data;
  if (!page) return <OpsQueryState query={query} />;
  const record = page.record;
  const removedIn = !record ? page.history.find((entry) => entry.op === 'remove')?.versionId : undefined;
  const maker = user.roles.includes('maker');
  const fields = record ? Object.keys(record) : [];
  return (
    <Stack spacing={2}>
      <div>
        <Typography component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }} data-testid="record-name">
          {recordName(page)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t(`ops.kinds.${kind}`)} · <code>{readableKey(page.key, ' · ')}</code>
        </Typography>
      </div>
      <Stack component="section" spacing={1} aria-labelledby="record-fields-title">
        <Typography id="record-fields-title" component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('ops.records.served')}
        </Typography>
        {record ? (
          <RecordFieldList fields={record} testId="record-fields" />
        ) : (
          <Alert severity="info" role="status" data-testid="record-removed">
            {removedIn === undefined ? t('ops.records.notServed') : t('ops.records.removedIn', { version: removedIn })}
          </Alert>
        )}
        {maker && record && !editing && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', pt: 1 }}>
            <Button variant="outlined" onClick={() => setEditing(true)}>
              {t('ops.records.edit.change')}
            </Button>
            <RemoveRecord kind={kind} recordKey={page.key} name={recordName(page)} />
          </Stack>
        )}
      </Stack>
      {maker && record && editing && (
        <RecordForm
          kind={kind}
          fields={fields}
          initial={formValuesOf(fields, record)}
          country={record.country ?? undefined}
          title={t('ops.records.edit.changeTitle')}
          submitLabel={t('ops.records.edit.stageChange')}
          toBody={(values) => {
            const changed = changedFields(values, record);
            return Object.keys(changed).length === 0
              ? null
              : editsOf(kind, { op: 'change', key: page.key, fields: changed });
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      {reports}
      <Stack component="section" spacing={1} aria-labelledby="record-history-title">
        <Typography id="record-history-title" component="h3" variant="subtitle1" sx={{ fontWeight: 500 }}>
          {t('ops.records.history.title')}
        </Typography>
        <RecordHistory history={page.history} />
      </Stack>
    </Stack>
  );
}
