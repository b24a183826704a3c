import { useWatch } from 'react-hook-form';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHANGE_KINDS, type ChangeKind } from '../../../../contract/ops-changes';
import { OpsPagination } from '../../../components/ui/ops-pagination';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSelect } from '../../../components/ui/ops-select-filter';
import { SearchForm } from '../../../components/ui/search-form';
import { fieldSlots } from '../../../lib/field-slots';
import { translateRule } from '../../../lib/i18n';
import { presentValues, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { useRecords } from '../api/get-records';
import { RecordResults } from './record-results';

const PARAMS = ['kind', 'q', 'country', 'pageNumber', 'pageSize'] as const;
const loadSchema = () =>
  import('../../../../contract/ops-records').then(({ recordsQuery }) => recordsQuery.pick({ q: true, country: true }));

export const kindOf = (value: string): ChangeKind =>
  (CHANGE_KINDS as readonly string[]).includes(value) ? (value as ChangeKind) : 'branches';

/**
 * The published records: a kind, a code or a part of a name, bank or city, and a country. The URL holds the
 * search (a link to it is the search), the results are paged like the desk's other lists, and each record opens
 * its own page.
 */
export function RecordSearch() {
  const { t } = useTranslation();
  const { values, update } = useScreenParams(PARAMS);
  const kind = kindOf(values.kind);
  const { form, commit, hasErrors, preload } = useUrlForm({
    loadSchema,
    urlValues: { q: values.q, country: values.country },
    onCommit: (filters) => update(filters),
  });
  // 25 a page unless the URL says otherwise: one of the desk's page sizes.
  const query = useRecords({ pageSize: 25, ...presentValues(values), kind });
  const errors = form.formState.errors;
  const [q, country] = useWatch({ control: form.control, name: ['q', 'country'] });
  const countryField = form.register('country');
  return (
    <Stack spacing={2}>
      <SearchForm label={t('ops.records.form')} onSubmit={commit} onFocus={preload}>
        <OpsSelect
          label={t('ops.records.kind')}
          value={kind}
          values={CHANGE_KINDS}
          optionLabel={(value) => t(`ops.kinds.${value}`)}
          onChange={(value) => update({ kind: value === 'branches' ? undefined : value })}
          sx={{ minWidth: 220 }}
        />
        <TextField
          {...form.register('q')}
          size="small"
          label={t('ops.records.query')}
          slotProps={fieldSlots(q)}
          sx={{ flex: 1 }}
          error={Boolean(errors.q)}
          helperText={errors.q ? translateRule(errors.q.message) : t(`ops.records.queryHint.${kind}`)}
        />
        <TextField
          {...countryField}
          onChange={(event) => {
            // Country codes are upper case: typed "in" means IN.
            event.target.value = event.target.value.toUpperCase();
            return countryField.onChange(event);
          }}
          size="small"
          label={t('ops.records.country')}
          slotProps={{ ...fieldSlots(country), htmlInput: { ...fieldSlots(country).htmlInput, maxLength: 2 } }}
          sx={{ width: { md: 160 } }}
          error={Boolean(errors.country)}
          helperText={errors.country ? translateRule(errors.country.message) : t('ops.records.countryHint')}
        />
      </SearchForm>
      <OpsQueryState query={query} />
      {query.data?.data.length === 0 && !hasErrors && (
        <Typography role="status" data-testid="records-none">
          {t('ops.records.none')}
        </Typography>
      )}
      {query.data && query.data.data.length > 0 && (
        <RecordResults kind={kind} records={query.data.data} total={query.data.pagination.totalItems} />
      )}
      {query.data && query.data.pagination.totalItems > 0 && (
        <OpsPagination pagination={query.data.pagination} onChange={(page) => update(page)} />
      )}
    </Stack>
  );
}
