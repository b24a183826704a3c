import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import { Link as RouterLink } from 'wouter';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Agent } from '../../../../contract';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../../../contract/constants';
import { withPlaceAliases } from '../../../../contract/place-aliases';
import { ComboField } from '../../../components/ui/combo-field';
import { CopyableCode, NamedCode } from '../../../components/ui/copy-button';
import { fieldColumns } from '../../../components/ui/export-csv-button';
import { useFilterFold } from '../../../components/ui/filter-fold';
import { ResultsHeader } from '../../../components/ui/results-header';
import { SearchForm } from '../../../components/ui/search-form';
import { QueryStatus } from '../../../components/ui/query-status';
import { PastLastPage, ResultsPagination, isPastLastPage } from '../../../components/ui/results-pagination';
import { ResultsView, type ResultColumn } from '../../../components/ui/results-view';
import { errorSentence } from '../../../lib/api-client';
import { fieldSlots } from '../../../lib/field-slots';
import { translateRule } from '../../../lib/i18n';
import { presentValues, useOtherParams, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { agentsQueryOptions, getAgents, useAgents } from '../api/get-agents';
import { useStates } from '../api/get-states';
import { useBankBranchCount } from './bank-branch-count';
import { SearchHelp, type SuggestionChanges } from '../../../components/search-help/search-help';

const FILTERS = ['state', 'search', 'pageNumber', 'pageSize'] as const;
const loadFilterSchema = () =>
  import('../../../../contract').then(({ agentsQuery }) => agentsQuery.pick({ state: true, search: true }));

const csvColumns = (t: TFunction) =>
  fieldColumns<Agent>([
    [t('columns.agentCode'), 'agentCode', true],
    [t('columns.agentName'), 'agentName'],
    [t('columns.headOfficeCode'), 'receivingAgentHeadOfficeCode', true],
    [t('columns.headOfficeName'), 'headOfficeName'],
    [t('columns.bankCode'), 'bankCode', true],
    [t('columns.bankName'), 'bankName'],
    [t('columns.addressLine1'), 'addressLine1'],
    [t('columns.addressLine2'), 'addressLine2'],
    [t('columns.city'), 'city'],
    [t('columns.state'), 'stateName'],
    [t('columns.phone'), 'phoneNumber', true],
    [t('columns.payoutType'), 'payoutType'],
  ]);

/** The CSV export: the agents file of docs/import.md, column for column, so that it imports again unchanged. */
export const agentImportColumns = fieldColumns<Agent>([
  ['agent_code', 'agentCode'],
  ['head_office_code', 'receivingAgentHeadOfficeCode'],
  ['country', 'receivingCountry'],
  ['agent_name', 'agentName'],
  ['address_line1', 'addressLine1'],
  ['address_line2', 'addressLine2'],
  ['city', 'city'],
  ['state', 'state'],
  ['phone_number', 'phoneNumber'],
]);

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
  rowTools,
}: {
  receivingCountry: string;
  deliveryMode: string;
  branchFinderHref: string;
  /** What the app adds under an agent's name (the customer slip). */
  rowTools?: (agent: Agent) => ReactNode;
}) {
  const { t } = useTranslation();
  const { values, update } = useScreenParams(FILTERS);
  const queryClient = useQueryClient();
  const others = useOtherParams(FILTERS);
  const { form, commit, commitNow, inSync, hasErrors, preload } = useUrlForm({
    loadSchema: loadFilterSchema,
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
      update(filters);
    },
  });
  const states = useStates({ receivingCountry }, true);
  const params = { ...others, receivingCountry, deliveryMode, ...presentValues(values) };
  const agents = useAgents(params, true);
  // On a phone the filters fold into a summary once searched.
  const fold = useFilterFold([values.state, values.search]);
  const isAccountTransfer = Number(deliveryMode) === ACCOUNT_TRANSFER_TO_OTHER_BANK;
  // Mode-04 rows are bank branches reachable through a head office: their count and headers say so.
  const bankBranchCount = useBankBranchCount(receivingCountry, isAccountTransfer);
  const errors = form.formState.errors;
  // A value set from the URL or a suggestion (not typed) must shrink the label too.
  const watchedSearch = useWatch({ control: form.control, name: 'search' });
  const stateName = (code: string) => {
    const found = states.data?.data.find((s) => s.code === code);
    return found ? withPlaceAliases(receivingCountry, found.name) : code;
  };
  const pagination = agents.data?.pagination;
  // An empty answer's suggestion taken: the fields show it and the list searches it.
  const takeSuggestion = (changes: SuggestionChanges) => {
    if (changes.search !== undefined) form.setValue('search', changes.search);
    if (changes.state !== undefined) form.setValue('state', changes.state);
    update({ ...changes, pageNumber: '' });
  };

  const columns: ResultColumn<Agent>[] = [
    {
      header: t('columns.agentCode'),
      cell: (agent) => (
        <CopyableCode
          value={agent.agentCode}
          label={isAccountTransfer ? t('codes.routingNumber') : t('codes.agentCode')}
        />
      ),
    },
    {
      header: isAccountTransfer ? t('columns.branch') : t('columns.agent'),
      cell: (agent) => (
        <>
          {agent.agentName}
          {rowTools && <br />}
          {rowTools?.(agent)}
        </>
      ),
    },
    ...(isAccountTransfer
      ? [
          {
            header: t('columns.bank'),
            cell: (agent: Agent) => (
              <NamedCode name={agent.bankName} code={agent.bankCode} label={t('codes.bankCode')} />
            ),
          },
        ]
      : []),
    {
      header: isAccountTransfer ? t('bankBranchRows.through') : t('columns.headOffice'),
      cell: (agent) => (
        <>
          <NamedCode
            name={agent.headOfficeName}
            code={agent.receivingAgentHeadOfficeCode}
            label={t('codes.headOfficeCode')}
          />
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
                {t('agents.thisBranch')}
              </Link>
            </>
          )}
        </>
      ),
    },
    {
      header: t('columns.address'),
      cell: (agent) => (
        <>
          {agent.addressLine1}
          {agent.addressLine2 && <br />}
          {agent.addressLine2}
        </>
      ),
    },
    { header: t('columns.state'), cell: (agent) => (agent.state ? stateName(agent.state) : agent.stateName) },
    { header: t('columns.phone'), cell: (agent) => <span style={{ whiteSpace: 'nowrap' }}>{agent.phoneNumber}</span> },
    { header: t('columns.payoutType'), cell: (agent) => agent.payoutType },
  ];

  // Each empty answer names its actual cause.
  const emptyMessage = () => {
    const where = {
      state: values.state ? stateName(values.state) : '',
      mode: deliveryMode,
      country: receivingCountry,
      search: values.search,
    };
    if (!values.search) return values.state ? t('agents.emptyNoneInState', where) : t('agents.emptyNone', where);
    return values.state ? t('agents.emptySearchInState', where) : t('agents.emptySearch', where);
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
              {t('agents.openFinder')}
            </Button>
          }
        >
          {t('agents.pointerLead')} <strong>{t('agents.pointerFinder')}</strong> {t('agents.pointerRest')}
          <code> {t('agents.pointerPattern')}</code>.
        </Alert>
      )}
      {fold.summary}
      <SearchForm label={t('agents.form')} fold={fold.form} onSubmit={commit} onFocus={preload}>
        <Controller
          name="state"
          control={form.control}
          render={({ field }) => (
            <ComboField
              name={field.name}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                void commitNow(); // a choice is complete: no typing pause to wait for
              }}
              label={t('agents.state')}
              sx={{ minWidth: 240 }}
              loading={states.isPending}
              options={(states.data?.data ?? []).map((state) => ({
                value: state.code,
                label: `${withPlaceAliases(receivingCountry, state.name)} (${state.code})`,
              }))}
              error={Boolean(errors.state || states.error)}
              helperText={
                errors.state
                  ? translateRule(errors.state.message)
                  : states.error
                    ? t('agents.statesFailed', { message: errorSentence(states.error) })
                    : t('agents.statesHint')
              }
            />
          )}
        />
        <TextField
          {...form.register('search')}
          size="small"
          slotProps={fieldSlots(watchedSearch)}
          label={t('agents.search')}
          sx={{ flex: 1 }}
          error={Boolean(errors.search)}
          helperText={
            errors.search
              ? t('agents.searchError', { message: translateRule(errors.search.message) })
              : isAccountTransfer
                ? t('agents.searchHintMode04')
                : t('agents.searchHint')
          }
        />
      </SearchForm>
      {fold.done}
      <QueryStatus
        isPending={agents.isPending}
        isFetching={agents.isFetching}
        error={agents.error}
        isEmpty={agents.data?.data.length === 0}
        empty={
          isPastLastPage(pagination) ? (
            <PastLastPage pagination={pagination!} onChange={update} />
          ) : values.search ? (
            <SearchHelp screen="agents" params={params} message={emptyMessage()} onTake={takeSuggestion} />
          ) : (
            emptyMessage()
          )
        }
        onRetry={() => void agents.refetch()}
        stale={!inSync || agents.isPlaceholderData}
        invalid={hasErrors}
      >
        {agents.data && (
          <>
            <ResultsHeader
              noun="results.agents"
              source={{
                total: agents.data.pagination.totalItems,
                rows: agents.data.data,
                fetchPage: (pageNumber, pageSize) =>
                  getAgents({ ...params, pageNumber: String(pageNumber), pageSize: String(pageSize) }),
              }}
              columns={csvColumns(t)}
              importColumns={agentImportColumns}
              screen="agents"
              filters={{ receivingCountry, deliveryMode, state: values.state, search: values.search }}
              countText={bankBranchCount}
            />
            <ResultsView
              label={isAccountTransfer ? t('bankBranchRows.list') : t('agents.list')}
              rows={agents.data.data}
              columns={columns}
              rowKey={(agent) => `${agent.receivingAgentHeadOfficeCode}:${agent.agentCode}`}
              footer={<ResultsPagination pagination={agents.data.pagination} onChange={(change) => update(change)} />}
            />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
