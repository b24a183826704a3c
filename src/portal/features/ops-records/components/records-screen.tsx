import { useState } from 'react';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { OpsRole } from '../../../../contract/ops-auth';
import { NEW_RECORD_FIELDS, editsOf, filledFields, formValuesOf } from './record-form-schema';
import { RecordForm } from './record-form';
import { RecordSearch } from './record-search';

const BRANCH_FIELDS = NEW_RECORD_FIELDS.branches;

/** The records screen: the search, and for a maker "Add a branch" (staged as a change without a file). */
export function RecordsScreen({ user }: { user: { name: string; roles: OpsRole[] } }) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const maker = user.roles.includes('maker');
  return (
    <Stack spacing={2}>
      {maker &&
        (adding ? (
          <RecordForm
            kind="branches"
            fields={BRANCH_FIELDS}
            initial={formValuesOf(BRANCH_FIELDS, null)}
            title={t('ops.records.edit.addTitle')}
            submitLabel={t('ops.records.edit.stageAdd')}
            toBody={(values) => editsOf('branches', { op: 'add', fields: filledFields(values) })}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <div>
            <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              {t('ops.records.edit.add')}
            </Button>
          </div>
        ))}
      <RecordSearch />
    </Stack>
  );
}
