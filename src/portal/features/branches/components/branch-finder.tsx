import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TFunction } from 'i18next';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BankBranch } from '../../../../contract';
import { bankCodeProblem } from '../../../../contract/bank-codes';
import { DISTRICT_COUNTRY } from '../../../../contract/constants';
import { branchCodeName } from '../../../../contract/countries';
import { withPlaceAliases } from '../../../../contract/place-aliases';
import { CopyableCode, NamedCode } from '../../../components/ui/copy-button';
import { fieldColumns } from '../../../components/ui/export-csv-button';
import { useFilterFold } from '../../../components/ui/filter-fold';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { PastLastPage, ResultsPagination, isPastLastPage } from '../../../components/ui/results-pagination';
import { ResultsView, useIsPhone, type ResultColumn } from '../../../components/ui/results-view';
import { fieldSlots } from '../../../lib/field-slots';
import { translateRule } from '../../../lib/i18n';
import { presentValues, useOtherParams, useScreenParams } from '../../../lib/url-state';
import { useUrlForm } from '../../../lib/use-url-form';
import { branchesQueryOptions, getBranches, useBranches, useHeadOfficesPayingInto } from '../api/get-branches';
import { getBrowse, useBrowse } from '../api/get-browse';
import { BrowseFacets } from './browse-facets';
import { SearchHelp, type SuggestionChanges } from '../../../components/search-help/search-help';
import { NoRoutingNumberNote, noRoutingNumbers } from './no-routing-number';

export interface HeadOffice {
  code: string;
  name: string;
}

// state and city are the browse facets' (GET /v1/banks/browse, an extension); the spec's operation never gets them.
const FILTERS = [
  'receivingAgentHeadOfficeCode',
  'bankName',
  'bankCode',
  'branchLocation',
  'address',
  'district',
  'state',
  'city',
  'pageNumber',
  'pageSize',
] as const;
const NOT_SENT = [...FILTERS, 'branch', 'slip'];
const FIELDS = {
  receivingAgentHeadOfficeCode: true,
  bankName: true,
  bankCode: true,
  branchLocation: true,
  address: true,
} as const;
// District is a filter of Bangladesh only (spec §4.3); elsewhere the field does not exist.
const loadSchemaFor = (receivingCountry: string) => () =>
  import('../../../../contract').then(({ branchesQuery }) =>
    receivingCountry === DISTRICT_COUNTRY
      ? branchesQuery.pick({ ...FIELDS, district: true })
      : branchesQuery.pick(FIELDS),
  );

const TEXT_FIELDS = [
  { name: 'bankName', label: 'branches.bankName', hint: 'branches.bankNameHint', phone: true },
  { name: 'bankCode', label: 'branches.bankCode', hint: 'branches.bankCodeHint', phone: true },
  { name: 'branchLocation', label: 'branches.branchLocation', hint: 'branches.branchLocationHint', phone: false },
  { name: 'address', label: 'branches.address', hint: 'branches.addressHint', phone: false },
] as const;

/** The finder's values without the browse facets' state and city. */
function withoutBrowsing<T extends { state?: string; city?: string }>(values: T): Omit<T, 'state' | 'city'> {
  const { state: _state, city: _city, ...rest } = values;
  return rest;
}

// Codes are pasted from cheques and spreadsheets with spaces or tabs around (or inside) them; a code never holds one.
const withoutSpaces = (value: string) => value.replace(/\s+/g, '');

const csvColumns = (t: TFunction, codeName: string) =>
  fieldColumns<BankBranch>([
    [t('branchDetail.branchId'), 'branchId', true],
    [t('columns.bankCode'), 'bankCode', true],
    [t('columns.bankName'), 'bankName'],
    [codeName, 'routingNumber', true],
    [t('columns.branch'), 'branchName'],
    [t('columns.branchLocation'), 'branchLocation'],
    [t('columns.address'), 'address'],
    [t('columns.district'), 'district'],
    [t('columns.state'), 'stateName'],
    [t('columns.headOfficeCode'), 'receivingAgentHeadOfficeCode', true],
  ]);

/** The CSV export: the branches file of docs/import.md, column for column, so that it imports again unchanged. */
export const branchImportColumns = fieldColumns<BankBranch>([
  ['country', 'receivingCountry'],
  ['bank_code', 'bankCode'],
  ['bank_name', 'bankName'],
  ['routing_number', 'routingNumber'],
  ['branch_name', 'branchName'],
  ['address_line1', 'branchLocation'],
  ['address_line2', 'address'],
  ['city', 'city'],
  ['district', 'district'],
  ['state', 'state'],
]);

/** Get Bank Branches (spec §4.3) for delivery mode 04: head office, bank and address filters, paged. */
export function BranchFinder({
  receivingCountry,
  deliveryMode,
  headOffices,
  detailHref,
  onOpenDetail,
  explainCode,
}: {
  receivingCountry: string;
  deliveryMode: string;
  headOffices: HeadOffice[];
  /** The link that opens a branch's detail (the URL with `branch=`), and opening it in place. */
  detailHref: (branchId: string) => string;
  onOpenDetail: (branchId: string) => void;
  /**
   * For a well-formed code no head office has a branch of: what the code box knows of it (a real code not in our
   * list, and who pays into its bank), composed by the route. `switchTo` draws the buttons that switch to those
   * head offices.
   */
  explainCode?: (code: string, switchTo: (headOfficeCodes: string[]) => ReactNode) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const { values, update } = useScreenParams(FILTERS);
  const queryClient = useQueryClient();
  // `branch` is the detail view's (the route's), never a parameter of the search.
  const others = useOtherParams(NOT_SENT);
  // What the country calls the routing number: "IFSC" in India, "Routing number" in Bangladesh.
  const codeName = branchCodeName(receivingCountry, i18n.language);
  const isBangladesh = receivingCountry === DISTRICT_COUNTRY;
  const isPhone = useIsPhone();
  const { form, commit, commitNow, inSync, hasErrors, preload } = useUrlForm({
    loadSchema: loadSchemaFor(receivingCountry),
    urlValues: {
      receivingAgentHeadOfficeCode: values.receivingAgentHeadOfficeCode,
      bankName: values.bankName,
      bankCode: values.bankCode,
      branchLocation: values.branchLocation,
      address: values.address,
      ...(isBangladesh ? { district: values.district } : {}),
    },
    onCommit: (filters) => {
      // Another head office or bank code starts the browsing (state, city) afresh: they belonged to the old bank.
      const rebrowse =
        filters.receivingAgentHeadOfficeCode !== values.receivingAgentHeadOfficeCode ||
        filters.bankCode !== values.bankCode;
      const browsing = rebrowse ? { state: '', city: '' } : { state: values.state, city: values.city };
      // The request leaves now, not after the screen has rendered the new URL (~200 ms later on a busy PC).
      const next = {
        ...others,
        receivingCountry,
        deliveryMode,
        ...presentValues({ ...values, ...filters, ...browsing, pageNumber: '' }),
      };
      if (next.receivingAgentHeadOfficeCode && !next.state && !next.city)
        void queryClient.prefetchQuery(
          branchesQueryOptions({
            ...withoutBrowsing(next),
            receivingAgentHeadOfficeCode: next.receivingAgentHeadOfficeCode,
          }),
        );
      update({ ...filters, ...(rebrowse ? browsing : {}) });
    },
  });
  const headOffice = values.receivingAgentHeadOfficeCode;
  // The API needs a head office; the first of the country's mode-04 networks is the natural start.
  useEffect(() => {
    if (!headOffice && headOffices[0]) update({ receivingAgentHeadOfficeCode: headOffices[0].code }, { replace: true });
  }, [headOffice, headOffices, update]);

  const params = {
    ...others,
    receivingCountry,
    deliveryMode,
    ...presentValues(withoutBrowsing(values)),
    receivingAgentHeadOfficeCode: headOffice,
  };
  // Browsing to a state or city: the table is the browse answer's page; otherwise the spec's Get Bank Branches,
  // with the facets asked for alongside (one row of page, only their counts are used).
  const narrowed = Boolean(values.state || values.city);
  const browseParams = narrowed
    ? { ...params, ...presentValues({ state: values.state, city: values.city }) }
    : { ...params, pageNumber: undefined, pageSize: '1' };
  const browse = useBrowse(browseParams, Boolean(headOffice), narrowed);
  const table = useBranches(params, Boolean(headOffice) && !narrowed);
  const branches = narrowed ? browse : table;
  const errors = form.formState.errors as Partial<Record<string, { message?: string }>>;
  const watched = useWatch({ control: form.control }) as Partial<Record<string, string>>;
  const chosenOffice = headOffices.find((o) => o.code === headOffice);
  const pagination = branches.data?.pagination;
  const isEmpty = !headOffice || branches.data?.data.length === 0;
  const codeProblem = values.bankCode ? bankCodeProblem(receivingCountry, values.bankCode) : undefined;
  // An empty answer to a well-formed code or a bank name: ask the other head offices whether they pay into it
  // (the head office first chosen for the teller may simply be the wrong one for this bank).
  const askOthers = Boolean(
    isEmpty &&
    chosenOffice &&
    (values.bankCode || values.bankName) &&
    !codeProblem &&
    !branches.isPlaceholderData &&
    !isPastLastPage(pagination),
  );
  const payingOffices = useHeadOfficesPayingInto(
    values.bankCode
      ? { receivingCountry, deliveryMode, bankCode: values.bankCode }
      : { receivingCountry, deliveryMode, bankName: values.bankName },
    headOffices.filter((o) => o.code !== headOffice).map((o) => o.code),
    askOthers,
  );
  const switchButtons = (codes: string[]) =>
    headOffices
      .filter((o) => codes.includes(o.code))
      .map((o, i) => (
        <span key={o.code}>
          {i > 0 && ', '}
          <Button
            size="small"
            onClick={() => update({ receivingAgentHeadOfficeCode: o.code })}
            sx={{ p: 0, minWidth: 0, verticalAlign: 'baseline' }}
          >
            {o.name} ({o.code})
          </Button>
        </span>
      ));

  // On a phone the less used fields fold away, so the results start near the top; any of them in use stays open.
  const [moreOpen, setMoreOpen] = useState(false);
  const foldedInUse = Boolean(
    values.branchLocation || values.address || values.district || values.state || values.city,
  );
  const showFolded = !isPhone || moreOpen || foldedInUse;
  // On a phone all the filters fold into a summary once searched.
  const fold = useFilterFold(
    (['bankName', 'bankCode', 'branchLocation', 'address', 'district', 'state', 'city'] as const).map(
      (name) => values[name],
    ),
  );

  const withoutCodes = noRoutingNumbers(branches.data?.data ?? []);
  const columns: ResultColumn<BankBranch>[] = [
    {
      header: t('columns.bank'),
      cell: (branch) => <NamedCode name={branch.bankName} code={branch.bankCode} label={t('codes.bankCode')} />,
    },
    ...(withoutCodes
      ? []
      : [
          {
            header: codeName,
            cell: (branch: BankBranch) => <CopyableCode value={branch.routingNumber} label={codeName} />,
          },
        ]),
    {
      header: t('columns.branch'),
      cell: (branch) => (
        <Link
          href={detailHref(branch.branchId)}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            onOpenDetail(branch.branchId);
          }}
          aria-label={t('branchDetail.open', { branch: branch.branchName })}
          data-testid="branch-detail-link"
        >
          {branch.branchName}
        </Link>
      ),
    },
    { header: t('columns.branchLocation'), cell: (branch) => branch.branchLocation },
    { header: t('columns.address'), cell: (branch) => branch.address },
    ...(isBangladesh ? [{ header: t('columns.district'), cell: (branch: BankBranch) => branch.district }] : []),
  ];

  // An empty answer's suggestion taken: the fields show it and the finder searches it.
  const takeSuggestion = (changes: SuggestionChanges) => {
    for (const [name, value] of Object.entries(changes))
      if (name in FIELDS || name === 'district') form.setValue(name as keyof typeof FIELDS, value);
    update({ ...changes, pageNumber: '' });
  };

  // Each empty answer names its actual cause.
  const empty = () => {
    if (!headOffice) return t('branches.chooseHeadOffice');
    if (pagination && isPastLastPage(pagination)) return <PastLastPage pagination={pagination} onChange={update} />;
    if (!chosenOffice) return t('branches.unknownHeadOffice', { code: headOffice, country: receivingCountry });
    const office = `${chosenOffice.name} (${chosenOffice.code})`;
    // The contract's format check names the expected format in English (shared with the API's answer).
    if (codeProblem) return t('branches.badCode', { problem: codeProblem });
    const filters = (['bankName', 'branchLocation', 'address', 'district'] as const)
      .filter((name) => values[name])
      .map((name) =>
        t('branches.filterValue', {
          filter: t(`branches.filter.${name}`),
          value:
            name === 'district' || name === 'address' ? withPlaceAliases(receivingCountry, values[name]) : values[name],
        }),
      )
      .join(', ');
    const about = { office, code: values.bankCode, country: receivingCountry, filters };
    if (values.bankCode) {
      if (payingOffices.isPending) return t('branches.checkingOthers', about);
      const paying = headOffices.filter((o) => payingOffices.codes.includes(o.code));
      // No branch of ours under any head office: a real code we do not list is said so, as the code box does.
      if (paying.length === 0 && explainCode && !filters) return explainCode(values.bankCode, switchButtons);
      if (paying.length === 0)
        return filters ? t('branches.noBranchWithCodeAnd', about) : t('branches.noBranchWithCode', about);
      return (
        <Alert severity="info" role="status" data-testid="results-empty">
          {filters ? t('branches.otherOfficesWith', about) : t('branches.otherOffices', about)}
          {switchButtons(paying.map((o) => o.code))}.
        </Alert>
      );
    }
    if (values.bankName && !payingOffices.isPending && payingOffices.codes.length > 0)
      return (
        <Alert severity="info" role="status" data-testid="results-empty">
          {t('branchDetail.notPaidThrough', { office, bank: values.bankName })}
          {switchButtons(payingOffices.codes)}.
        </Alert>
      );
    if (!filters) return t('branches.noneListed', about);
    return (
      <SearchHelp screen="branches" params={params} message={t('branches.noMatch', about)} onTake={takeSuggestion} />
    );
  };

  return (
    <Stack spacing={2}>
      {fold.summary}
      <Box
        component="form"
        role="search"
        aria-label={t('branches.form')}
        {...fold.form}
        onSubmit={commit}
        onFocus={preload}
        noValidate
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: 'repeat(3, 1fr)' } }}
      >
        <Controller
          name="receivingAgentHeadOfficeCode"
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
              label={t('branches.headOffice')}
              error={Boolean(errors.receivingAgentHeadOfficeCode)}
              helperText={
                errors.receivingAgentHeadOfficeCode
                  ? translateRule(errors.receivingAgentHeadOfficeCode.message)
                  : t('branches.headOfficeHint')
              }
            >
              {headOffices.map((office) => (
                <MenuItem key={office.code} value={office.code}>
                  {office.name} ({office.code})
                </MenuItem>
              ))}
              {headOffice && !headOffices.some((o) => o.code === headOffice) && (
                <MenuItem value={headOffice}>{headOffice}</MenuItem>
              )}
            </TextField>
          )}
        />
        {TEXT_FIELDS.filter((f) => f.phone || showFolded).map(({ name, label, hint }) => (
          <TextField
            key={name}
            {...form.register(
              name,
              name === 'bankCode' ? { setValueAs: (value: string) => withoutSpaces(value ?? '') } : undefined,
            )}
            size="small"
            label={t(label)}
            slotProps={fieldSlots(watched[name])}
            error={Boolean(errors[name])}
            helperText={
              errors[name]
                ? t('branches.fieldError', { label: t(label), message: translateRule(errors[name]?.message) })
                : t(hint)
            }
          />
        ))}
        {isBangladesh && showFolded && (
          <TextField
            {...form.register('district')}
            size="small"
            slotProps={fieldSlots(watched.district)}
            label={t('branches.district')}
            error={Boolean(errors.district)}
            helperText={
              errors.district
                ? t('branches.fieldError', {
                    label: t('branches.district'),
                    message: translateRule(errors.district.message),
                  })
                : t('branches.districtHint')
            }
          />
        )}
        {isPhone && !foldedInUse && (
          <Button
            size="small"
            onClick={() => setMoreOpen((open) => !open)}
            aria-expanded={showFolded}
            sx={{ justifySelf: 'start' }}
          >
            {showFolded
              ? t('branches.fewerFilters')
              : isBangladesh
                ? t('branches.moreFiltersDistrict')
                : t('branches.moreFilters')}
          </Button>
        )}
        {/* Enter in a field submits at once instead of waiting for the typing pause. */}
        <button type="submit" hidden />
      </Box>
      {/* On a phone the browse lists fold with the less used filters, so the results start near the top. */}
      {headOffice && chosenOffice && showFolded && !fold.folded && (
        <BrowseFacets
          receivingCountry={receivingCountry}
          facets={browse.data?.facets}
          choice={{ bankCode: values.bankCode, state: values.state, city: values.city }}
          onChoose={(patch) => update(patch)}
          disabled={hasErrors || browse.isError}
          failed={browse.isError}
        />
      )}
      {fold.done}
      <QueryStatus
        isPending={branches.isPending && Boolean(headOffice)}
        isFetching={branches.isFetching}
        error={branches.error}
        isEmpty={isEmpty}
        empty={empty()}
        onRetry={() => void branches.refetch()}
        stale={!inSync || branches.isPlaceholderData}
        invalid={hasErrors}
      >
        {branches.data && (
          <>
            {/* Whose branches these are: the chosen head office in the answer's own words.
                On a phone the head office is the field just above, and the first row must stay in view. */}
            {chosenOffice && (
              <Typography
                variant="body2"
                color="text.secondary"
                data-testid="answer-head-office"
                sx={{ display: { xs: 'none', sm: 'block' } }}
              >
                {t('branches.paidThrough', { office: `${chosenOffice.name} (${chosenOffice.code})` })}
              </Typography>
            )}
            <ResultsHeader
              noun="results.branches"
              source={{
                total: branches.data.pagination.totalItems,
                rows: branches.data.data,
                fetchPage: (pageNumber, pageSize) =>
                  narrowed
                    ? getBrowse({ ...browseParams, pageNumber: String(pageNumber), pageSize: String(pageSize) })
                    : getBranches({ ...params, pageNumber: String(pageNumber), pageSize: String(pageSize) }),
              }}
              columns={csvColumns(t, codeName)}
              importColumns={branchImportColumns}
              screen="branches"
              filters={{
                receivingCountry,
                receivingAgentHeadOfficeCode: headOffice,
                bankName: values.bankName,
                bankCode: values.bankCode,
                branchLocation: values.branchLocation,
                address: values.address,
                district: values.district,
                state: values.state,
                city: values.city,
              }}
            />
            {withoutCodes && <NoRoutingNumberNote receivingCountry={receivingCountry} />}
            <ResultsView
              label={t('branches.list')}
              rows={branches.data.data}
              columns={columns}
              rowKey={(branch) => branch.branchId}
              footer={<ResultsPagination pagination={branches.data.pagination} onChange={(change) => update(change)} />}
            />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
