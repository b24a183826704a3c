import { useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK, agentsQuery, withPlaceAliases, type Agent } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { type CsvColumn } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { PastLastPage, ResultsPagination, isPastLastPage } from '../../../components/ui/results-pagination';
import { ResultsView, type ResultColumn } from '../../../components/ui/results-view';
import { presentValues, useOtherParams, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { agentsQueryOptions, getAgents, useAgents } from '../api/get-agents';
import { useStates } from '../api/get-states';

const FILTERS = ['state', 'search', 'pageNumber', 'pageSize'] as const;
const filterSchema = agentsQuery.pick({ state: true, search: true });

const CSV_COLUMNS: CsvColumn<Agent>[] = [
  { header: 'Agent code', value: (a) => a.agentCode, code: true },
  { header: 'Agent name', value: (a) => a.agentName },
  { header: 'Head office code', value: (a) => a.receivingAgentHeadOfficeCode, code: true },
  { header: 'Head office name', value: (a) => a.headOfficeName },
  { header: 'Bank code', value: (a) => a.bankCode, code: true },
  { header: 'Bank name', value: (a) => a.bankName },
  { header: 'Address line 1', value: (a) => a.addressLine1 },
  { header: 'Address line 2', value: (a) => a.addressLine2 },
  { header: 'City', value: (a) => a.city },
  { header: 'State', value: (a) => a.stateName },
  { header: 'Phone', value: (a) => a.phoneNumber },
  { header: 'Payout type', value: (a) => a.payoutType },
];

/** A link into the branch finder with some of its fields filled in. */
function finderLink(base: string, fields: Record<string, string | null | undefined>): string {
  const [path, query = ''] = base.split('?');
  const params = new URLSearchParams(query);
  for (const [name, value] of Object.entries(fields)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** "[Bank Name], [Branch Name]" (spec §4.1 for mode 04) split into the branch finder's bank and branch fields. */
function bankAndBranch(search: string): { bankName?: string; branchLocation?: string } {
  const [bank, ...rest] = search.split(',');
  const branch = rest.join(',').trim();
  return { bankName: bank.trim() || undefined, branchLocation: branch || undefined };
}

/** Get Agent List (spec §4.1): state filter, case-sensitive search, paged results. */
export function AgentSearch({
  receivingCountry,
  deliveryMode,
  branchFinderHref,
}: {
  receivingCountry: string;
  deliveryMode: string;
  branchFinderHref: string;
}) {
  const { values, update } = useScreenParams(FILTERS);
  const queryClient = useQueryClient();
  const others = useOtherParams(FILTERS);
  const { form, commit, commitNow, inSync, hasErrors } = useUrlForm({
    schema: filterSchema,
    urlValues: { state: values.state, search: values.search },
    onCommit: (filters) => {
      // The request leaves now, not after the screen has rendered the new URL (~200 ms later on a busy PC).
      void queryClient.prefetchQuery(
        agentsQueryOptions({
          ...others,
          receivingCountry,
          deliveryMode,
          ...presentValues({ ...values, ...filters, pageNumber: '' }),
        }),
      );
      update(filters, { flushSync: true });
    },
  });
  const states = useStates({ receivingCountry }, true);
  const params = { ...others, receivingCountry, deliveryMode, ...presentValues(values) };
  const agents = useAgents(params, true);
  const isAccountTransfer = Number(deliveryMode) === ACCOUNT_TRANSFER_TO_OTHER_BANK;
  const errors = form.formState.errors;
  const stateName = (code: string) => {
    const found = states.data?.data.find((s) => s.code === code);
    return found ? withPlaceAliases(receivingCountry, found.name) : code;
  };
  const pagination = agents.data?.pagination;

  const columns: ResultColumn<Agent>[] = [
    {
      header: 'Agent code',
      cell: (agent) => (
        <CopyableCode value={agent.agentCode} label={isAccountTransfer ? 'routing number' : 'agent code'} />
      ),
    },
    { header: 'Agent', cell: (agent) => agent.agentName },
    ...(isAccountTransfer
      ? [
          {
            header: 'Bank',
            cell: (agent: Agent) => (
              <>
                {agent.bankName}
                <br />
                <CopyableCode value={agent.bankCode} label="bank code" />
              </>
            ),
          },
        ]
      : []),
    {
      header: 'Head office',
      cell: (agent) => (
        <>
          {agent.headOfficeName}
          <br />
          <CopyableCode value={agent.receivingAgentHeadOfficeCode} label="head office code" />
          {isAccountTransfer && (
            <>
              <br />
              <Link
                component={RouterLink}
                to={finderLink(branchFinderHref, {
                  receivingAgentHeadOfficeCode: agent.receivingAgentHeadOfficeCode,
                  bankCode: agent.routingNumber ?? agent.agentCode,
                })}
              >
                This branch in the branch finder
              </Link>
            </>
          )}
        </>
      ),
    },
    {
      header: 'Address',
      cell: (agent) => (
        <>
          {agent.addressLine1}
          {agent.addressLine2 && <br />}
          {agent.addressLine2}
        </>
      ),
    },
    { header: 'State', cell: (agent) => (agent.state ? stateName(agent.state) : agent.stateName) },
    { header: 'Phone', cell: (agent) => <span style={{ whiteSpace: 'nowrap' }}>{agent.phoneNumber}</span> },
    { header: 'Payout type', cell: (agent) => agent.payoutType },
  ];

  // Each empty answer names its actual cause.
  const emptyMessage = () => {
    const where = values.state ? ` in ${stateName(values.state)}` : '';
    if (!values.search)
      return `No agents${where} for delivery mode ${deliveryMode} in ${receivingCountry}.${values.state ? ' Choose "All states" to see the others.' : ''}`;
    const caseHint = /\p{L}/u.test(values.search)
      ? ` The search is case-sensitive: check upper and lower case ("Oxxo" does not find "OXXO").`
      : '';
    return `No agents${where} match "${values.search}".${caseHint}${values.state ? ' Or choose "All states".' : ''}`;
  };
  // The finder opens on the typed bank and branch, under the head office the answer named.
  const pointerHref = finderLink(branchFinderHref, {
    ...bankAndBranch(values.search),
    receivingAgentHeadOfficeCode: agents.data?.data[0]?.receivingAgentHeadOfficeCode,
  });

  return (
    <Stack spacing={2}>
      {isAccountTransfer && (
        <Alert
          severity="info"
          data-testid="branch-finder-pointer"
          action={
            <Button component={RouterLink} to={pointerHref} color="inherit" size="small">
              Open branch finder
            </Button>
          }
        >
          For delivery mode 04 (Account Transfer to Other Bank) the <strong>branch finder</strong> is the recommended
          lookup. Here, search as
          <code> [Bank Name], [Branch Name]</code>.
        </Alert>
      )}
      <Stack
        component="form"
        role="search"
        aria-label="Agent search"
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        onSubmit={commit}
        noValidate
      >
        <Controller
          name="state"
          control={form.control}
          render={({ field }) => (
            <TextField
              {...field}
              onChange={(event) => {
                field.onChange(event);
                void commitNow(); // a choice is complete: no typing pause to wait for
              }}
              select
              size="small"
              label="State"
              sx={{ minWidth: 220 }}
              error={Boolean(errors.state || states.error)}
              helperText={
                errors.state?.message ??
                (states.error
                  ? `States could not be loaded: ${states.error.message}`
                  : 'States of the receiving country')
              }
            >
              <MenuItem value="">All states</MenuItem>
              {(states.data?.data ?? []).map((state) => (
                <MenuItem key={state.code} value={state.code}>
                  {withPlaceAliases(receivingCountry, state.name)} ({state.code})
                </MenuItem>
              ))}
              {/* A state from a shared link that is not in the list still shows, so the API can say why. */}
              {values.state && !(states.data?.data ?? []).some((s) => s.code === values.state) && (
                <MenuItem value={values.state}>{values.state}</MenuItem>
              )}
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
        empty={
          isPastLastPage(pagination) ? <PastLastPage pagination={pagination!} onChange={update} /> : emptyMessage()
        }
        onRetry={() => void agents.refetch()}
        stale={!inSync || agents.isPlaceholderData}
        invalid={hasErrors}
      >
        {agents.data && (
          <>
            <ResultsHeader
              noun={{ one: 'agent', other: 'agents' }}
              source={{
                total: agents.data.pagination.totalItems,
                rows: agents.data.data,
                fetchPage: (pageNumber, pageSize) =>
                  getAgents({ ...params, pageNumber: String(pageNumber), pageSize: String(pageSize) }),
              }}
              columns={CSV_COLUMNS}
              screen="agents"
              filters={{ receivingCountry, deliveryMode, state: values.state, search: values.search }}
            />
            <ResultsView
              label="Agents"
              rows={agents.data.data}
              columns={columns}
              rowKey={(agent) => `${agent.receivingAgentHeadOfficeCode}:${agent.agentCode}`}
            />
            <ResultsPagination pagination={agents.data.pagination} onChange={(change) => update(change)} />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
