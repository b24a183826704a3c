import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ColumnMapping as Mapping, DetectedLayout } from '../../../../contract/ops-files';
import { OpsTable } from '../../../components/ui/ops-table';
import { OpsSection } from '../../../components/ui/ops-section';

/**
 * A file whose header is not a known layout: for each of its columns the maker picks the kind's field it holds
 * (or none), seeing the first rows; the fields a row must fill and no column gives are listed until mapped. A
 * branch file of one country without a country column gets a fixed country; an Indian one without a bank code
 * column takes it from the IFSC (its first four characters): the server derives both while reading.
 */
export function ColumnMapping({
  detected,
  onMapped,
  onCancel,
}: {
  detected: DetectedLayout;
  onMapped: (mapping: Mapping, country?: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [mapping, setMapping] = useState<Mapping>(detected.suggestedMapping);
  const [country, setCountry] = useState('');
  const [bankFromIfsc, setBankFromIfsc] = useState(true);
  const mapped = new Set(Object.values(mapping));
  const branches = detected.kind === 'branches';
  const fixedCountry = branches && !mapped.has('country');
  const countryGiven = /^[A-Z]{2}$/.test(country);
  // The server reads an Indian branch's bank code from its IFSC when no column gives it.
  const canTakeBank = fixedCountry ? country === 'IN' : branches;
  const ifscBank = canTakeBank && !mapped.has('bank_code') && mapped.has('routing_number');
  const derived = new Set([
    ...(fixedCountry && countryGiven ? ['country'] : []),
    ...(ifscBank && bankFromIfsc ? ['bank_code'] : []),
  ]);
  const missing = detected.fields
    .filter((field) => field.required && !mapped.has(field.name) && !derived.has(field.name))
    .map((f) => f.name);
  return (
    <OpsSection id="mapping-title" title={t('ops.mapping.title')}>
      <Typography variant="body2">{t('ops.mapping.intro')}</Typography>
      <OpsTable
        labelledBy="mapping-title"
        columns={(['column', 'field', 'sample'] as const).map((key) => t(`ops.mapping.${key}`))}
      >
        {detected.header.map((heading, index) => (
          <TableRow key={`${heading}-${index}`}>
            <TableCell component="th" scope="row">
              {heading}
            </TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                label={t('ops.mapping.fieldOf', { column: heading })}
                value={mapping[heading] ?? ''}
                onChange={(event) =>
                  setMapping((current) => {
                    const next = { ...current };
                    // A field is given by one column only: picking it here takes it from any other.
                    for (const [other, field] of Object.entries(next))
                      if (field === event.target.value) delete next[other];
                    if (event.target.value) next[heading] = event.target.value;
                    else delete next[heading];
                    return next;
                  })
                }
                sx={{ minWidth: 200 }}
              >
                <MenuItem value="">{t('ops.mapping.ignore')}</MenuItem>
                {detected.fields.map((field) => (
                  <MenuItem key={field.name} value={field.name}>
                    {field.name}
                    {field.required ? ' *' : ''}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell sx={{ color: 'text.secondary', maxWidth: 240, overflowWrap: 'anywhere' }}>
              {detected.sample
                .slice(0, 3)
                .map((row) => row[index] ?? '')
                .join(' · ')}
            </TableCell>
          </TableRow>
        ))}
      </OpsTable>
      {fixedCountry && (
        <TextField
          size="small"
          label={t('ops.mapping.fixedCountry')}
          helperText={t('ops.mapping.fixedCountryHint')}
          value={country}
          onChange={(event) => setCountry(event.target.value.toUpperCase().replace(/\s+/g, ''))}
          slotProps={{ htmlInput: { maxLength: 2, 'data-testid': 'fixed-country' } }}
          sx={{ maxWidth: 320 }}
        />
      )}
      {ifscBank && (
        <FormControlLabel
          control={<Checkbox checked={bankFromIfsc} onChange={(event) => setBankFromIfsc(event.target.checked)} />}
          label={t('ops.mapping.bankFromIfsc')}
        />
      )}
      {missing.length > 0 && (
        <Alert severity="warning" role="status">
          {t('ops.mapping.missing', { fields: missing.join(', ') })}
        </Alert>
      )}
      <Stack direction="row" spacing={2}>
        <Button
          variant="contained"
          disabled={missing.length > 0}
          onClick={() => onMapped(mapping, fixedCountry && countryGiven ? country : undefined)}
        >
          {t('ops.mapping.use')}
        </Button>
        <Button onClick={onCancel}>{t('ops.common.cancel')}</Button>
      </Stack>
    </OpsSection>
  );
}
