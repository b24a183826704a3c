import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Box from '@mui/material/Box';
import { DISTRICT_COUNTRY, branchesQuery, type BankBranch } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { type CsvColumn } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { ResultsPagination } from '../../../components/ui/results-pagination';
import { presentValues, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { useBranches } from '../api/get-branches';

export interface HeadOffice {
  code: string;
  name: string;
}

const FILTERS = ['receivingAgentHeadOfficeCode', 'bankName', 'bankCode', 'branchLocation', 'address', 'district', 'pageNumber', 'pageSize'] as const;
const FIELDS = { receivingAgentHeadOfficeCode: true, bankName: true, bankCode: true, branchLocation: true, address: true } as const;
// District is a filter of Bangladesh only (spec §4.3); elsewhere the field does not exist.
const schemaFor = (receivingCountry: string) =>
  receivingCountry === DISTRICT_COUNTRY ? branchesQuery.pick({ ...FIELDS, district: true }) : branchesQuery.pick(FIELDS);

const TEXT_FIELDS = [
  { name: 'bankName', label: 'Bank name', hint: 'Contains, any case' },
  { name: 'bankCode', label: 'Bank code / routing number', hint: 'Bank code, IFSC or routing number' },
  { name: 'branchLocation', label: 'Branch location', hint: 'Address line 1, contains' },
  { name: 'address', label: 'Address', hint: 'Address line 2, contains' },
] as const;

const CSV_COLUMNS: CsvColumn<BankBranch>[] = [
  { header: 'Bank code', value: (b) => b.bankCode },
  { header: 'Bank name', value: (b) => b.bankName },
  { header: 'Routing number', value: (b) => b.routingNumber },
  { header: 'Branch', value: (b) => b.branchName },
  { header: 'Branch location', value: (b) => b.branchLocation },
  { header: 'Address', value: (b) => b.address },
  { header: 'District', value: (b) => b.district },
  { header: 'State', value: (b) => b.stateName },
  { header: 'Head office code', value: (b) => b.receivingAgentHeadOfficeCode },
];

/** Get Bank Branches (spec §4.3) for delivery mode 04: head office, bank and address filters, paged. */
export function BranchFinder({ receivingCountry, deliveryMode, headOffices }: { receivingCountry: string; deliveryMode: string; headOffices: HeadOffice[] }) {
  const { values, update } = useScreenParams(FILTERS);
  const isBangladesh = receivingCountry === DISTRICT_COUNTRY;
  const { form, commit } = useUrlForm({
    schema: schemaFor(receivingCountry),
    urlValues: {
      receivingAgentHeadOfficeCode: values.receivingAgentHeadOfficeCode,
      bankName: values.bankName,
      bankCode: values.bankCode,
      branchLocation: values.branchLocation,
      address: values.address,
      ...(isBangladesh ? { district: values.district } : {}),
    },
    onCommit: (filters) => update(filters),
  });
  const headOffice = values.receivingAgentHeadOfficeCode;
  // The API needs a head office; the first of the country's mode-04 networks is the natural start.
  useEffect(() => {
    if (!headOffice && headOffices[0]) update({ receivingAgentHeadOfficeCode: headOffices[0].code }, { replace: true });
  }, [headOffice, headOffices, update]);

  const branches = useBranches({ receivingCountry, deliveryMode, ...presentValues(values), receivingAgentHeadOfficeCode: headOffice }, Boolean(headOffice));
  const errors = form.formState.errors as Partial<Record<string, { message?: string }>>;

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        role="search"
        aria-label="Branch search"
        onSubmit={commit}
        noValidate
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' } }}
      >
        <Controller
          name="receivingAgentHeadOfficeCode"
          control={form.control}
          render={({ field }) => (
            <TextField
              {...field}
              select
              size="small"
              label="Head office"
              error={Boolean(errors.receivingAgentHeadOfficeCode)}
              helperText={errors.receivingAgentHeadOfficeCode?.message ?? 'From the mode-04 payout networks'}
            >
              {headOffices.map((office) => (
                <MenuItem key={office.code} value={office.code}>
                  {office.name} ({office.code})
                </MenuItem>
              ))}
              {headOffice && !headOffices.some((o) => o.code === headOffice) && <MenuItem value={headOffice}>{headOffice}</MenuItem>}
            </TextField>
          )}
        />
        {TEXT_FIELDS.map(({ name, label, hint }) => (
          <TextField
            key={name}
            {...form.register(name)}
            size="small"
            label={label}
            error={Boolean(errors[name])}
            helperText={errors[name] ? `${label} ${errors[name]?.message}` : hint}
          />
        ))}
        {isBangladesh && (
          <TextField
            {...form.register('district')}
            size="small"
            label="District"
            error={Boolean(errors.district)}
            helperText={errors.district ? `District ${errors.district.message}` : 'Bangladesh only, contains'}
          />
        )}
        {/* Enter in a field submits at once instead of waiting for the typing pause. */}
        <button type="submit" hidden />
      </Box>
      <QueryStatus
        isPending={branches.isPending && Boolean(headOffice)}
        isFetching={branches.isFetching}
        error={branches.error}
        isEmpty={!headOffice || branches.data?.data.length === 0}
        empty={
          headOffice
            ? `No branches match. A bank code must belong to the chosen head office (${headOffice}); a bank code of another head office gives an empty result.`
            : 'Choose a head office.'
        }
        onRetry={() => void branches.refetch()}
      >
        {branches.data && (
          <>
            <ResultsHeader total={branches.data.pagination.totalItems} noun="branches" rows={branches.data.data} columns={CSV_COLUMNS} fileName={`branches-${receivingCountry}-${headOffice}.csv`} />
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Bank branches">
                <TableHead>
                  <TableRow>
                    <TableCell>Bank</TableCell>
                    <TableCell>Routing number</TableCell>
                    <TableCell>Branch</TableCell>
                    <TableCell>Branch location</TableCell>
                    <TableCell>Address</TableCell>
                    {isBangladesh && <TableCell>District</TableCell>}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {branches.data.data.map((branch) => (
                    <TableRow key={`${branch.bankCode}:${branch.routingNumber ?? ''}:${branch.branchName}`} hover>
                      <TableCell>
                        {branch.bankName}
                        <br />
                        <CopyableCode value={branch.bankCode} label="bank code" />
                      </TableCell>
                      <TableCell>
                        <CopyableCode value={branch.routingNumber} label="routing number" />
                      </TableCell>
                      <TableCell>{branch.branchName}</TableCell>
                      <TableCell>{branch.branchLocation}</TableCell>
                      <TableCell>{branch.address}</TableCell>
                      {isBangladesh && <TableCell>{branch.district}</TableCell>}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <ResultsPagination pagination={branches.data.pagination} onChange={(change) => update(change)} />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
