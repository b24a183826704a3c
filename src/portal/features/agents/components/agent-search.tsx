import { Controller } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK, agentsQuery, type Agent } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { type CsvColumn } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { ResultsPagination } from '../../../components/ui/results-pagination';
import { presentValues, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { useAgents } from '../api/get-agents';
import { useStates } from '../api/get-states';

const FILTERS = ['state', 'search', 'pageNumber', 'pageSize'] as const;
const filterSchema = agentsQuery.pick({ state: true, search: true });

const CSV_COLUMNS: CsvColumn<Agent>[] = [
  { header: 'Agent code', value: (a) => a.agentCode },
  { header: 'Agent name', value: (a) => a.agentName },
  { header: 'Head office code', value: (a) => a.receivingAgentHeadOfficeCode },
  { header: 'Head office name', value: (a) => a.headOfficeName },
  { header: 'Address line 1', value: (a) => a.addressLine1 },
  { header: 'Address line 2', value: (a) => a.addressLine2 },
  { header: 'City', value: (a) => a.city },
  { header: 'State', value: (a) => a.stateName },
  { header: 'Phone', value: (a) => a.phoneNumber },
  { header: 'Payout type', value: (a) => a.payoutType },
];

/** Get Agent List (spec §4.1): state filter, case-sensitive search, paged results. */
export function AgentSearch({ receivingCountry, deliveryMode, branchFinderHref }: { receivingCountry: string; deliveryMode: string; branchFinderHref: string }) {
  const { values, update } = useScreenParams(FILTERS);
  const { form, commit } = useUrlForm({
    schema: filterSchema,
    urlValues: { state: values.state, search: values.search },
    onCommit: (filters) => update(filters),
  });
  const states = useStates({ receivingCountry }, true);
  const agents = useAgents({ receivingCountry, deliveryMode, ...presentValues(values) }, true);
  const isAccountTransfer = Number(deliveryMode) === ACCOUNT_TRANSFER_TO_OTHER_BANK;
  const errors = form.formState.errors;

  return (
    <Stack spacing={2}>
      {isAccountTransfer && (
        <Alert
          severity="info"
          data-testid="branch-finder-pointer"
          action={
            <Button component={RouterLink} to={branchFinderHref} color="inherit" size="small">
              Open branch finder
            </Button>
          }
        >
          For delivery mode 04 (Account Transfer to Other Bank) the <strong>branch finder</strong> is the recommended lookup. Here, search as
          <code> [Bank Name], [Branch Name]</code>.
        </Alert>
      )}
      <Stack component="form" role="search" aria-label="Agent search" direction={{ xs: 'column', md: 'row' }} spacing={2} onSubmit={commit} noValidate>
        <Controller
          name="state"
          control={form.control}
          render={({ field }) => (
            <TextField
              {...field}
              select
              size="small"
              label="State"
              sx={{ minWidth: 220 }}
              error={Boolean(errors.state || states.error)}
              helperText={errors.state?.message ?? (states.error ? `States could not be loaded: ${states.error.message}` : 'States of the receiving country')}
            >
              <MenuItem value="">All states</MenuItem>
              {(states.data?.data ?? []).map((state) => (
                <MenuItem key={state.code} value={state.code}>
                  {state.name} ({state.code})
                </MenuItem>
              ))}
              {/* A state from a shared link that is not in the list still shows, so the API can say why. */}
              {values.state && !(states.data?.data ?? []).some((s) => s.code === values.state) && <MenuItem value={values.state}>{values.state}</MenuItem>}
            </TextField>
          )}
        />
        <TextField
          {...form.register('search')}
          size="small"
          label="Search head office or agent name"
          sx={{ flex: 1 }}
          error={Boolean(errors.search)}
          helperText={
            errors.search
              ? `Search ${errors.search.message}`
              : isAccountTransfer
                ? 'Case-sensitive. With mode 04 use the pattern [Bank Name], [Branch Name].'
                : 'Case-sensitive contains: "Oxxo" does not find "OXXO".'
          }
        />
        {/* Enter in the search field submits at once instead of waiting for the typing pause. */}
        <button type="submit" hidden />
      </Stack>
      <QueryStatus
        isPending={agents.isPending}
        isFetching={agents.isFetching}
        error={agents.error}
        isEmpty={agents.data?.data.length === 0}
        empty="No agents match. The search is case-sensitive: check upper and lower case, or clear the state filter."
        onRetry={() => void agents.refetch()}
      >
        {agents.data && (
          <>
            <ResultsHeader total={agents.data.pagination.totalItems} noun="agents" rows={agents.data.data} columns={CSV_COLUMNS} fileName={`agents-${receivingCountry}-${deliveryMode}.csv`} />
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Agents">
                <TableHead>
                  <TableRow>
                    <TableCell>Agent code</TableCell>
                    <TableCell>Agent</TableCell>
                    <TableCell>Head office</TableCell>
                    <TableCell>Address</TableCell>
                    <TableCell>State</TableCell>
                    <TableCell>Phone</TableCell>
                    <TableCell>Payout type</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {agents.data.data.map((agent) => (
                    <TableRow key={agent.agentCode} hover>
                      <TableCell>
                        <CopyableCode value={agent.agentCode} label="agent code" />
                      </TableCell>
                      <TableCell>{agent.agentName}</TableCell>
                      <TableCell>
                        {agent.headOfficeName}
                        <br />
                        <CopyableCode value={agent.receivingAgentHeadOfficeCode} label="head office code" />
                      </TableCell>
                      <TableCell>
                        {agent.addressLine1}
                        {agent.addressLine2 && <br />}
                        {agent.addressLine2}
                      </TableCell>
                      <TableCell>{agent.stateName ?? agent.state}</TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{agent.phoneNumber}</TableCell>
                      <TableCell>{agent.payoutType}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <ResultsPagination pagination={agents.data.pagination} onChange={(change) => update(change)} />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
