import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PayoutNetwork } from '../../../../contract';
import { PAYOUT_TYPES } from '../../../../contract/constants';
import { NamedCode } from '../../../components/ui/copy-button';
import { fieldColumns } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { ResultsView, type ResultColumn } from '../../../components/ui/results-view';
import { usePayoutNetworks } from '../api/get-payout-networks';

// The payout type's meaning is the API's text (English) in the data and the CSV; the screen says it in the
// teller's language, from the type's code.
const payoutTypeMeaning = (t: TFunction, code: string, fallback: string) =>
  code in PAYOUT_TYPES ? t(`payoutNetworks.type.${code as keyof typeof PAYOUT_TYPES}`) : fallback;

const csvColumns = (t: TFunction) =>
  fieldColumns<PayoutNetwork>([
    [t('columns.network'), 'networkName'],
    [t('columns.headOfficeCode'), 'receivingAgentHeadOfficeCode', true],
    [t('columns.headOfficeName'), 'headOfficeName'],
    [t('columns.payoutType'), 'payoutType'],
    [t('columns.payoutTypeMeaning'), 'payoutTypeDescription'],
    [t('columns.deliveryMode'), 'deliveryMode', true],
  ]);

const columns = (t: TFunction): ResultColumn<PayoutNetwork>[] => [
  { header: t('columns.network'), cell: (network) => network.networkName },
  {
    header: t('columns.headOffice'),
    cell: (network) => (
      <NamedCode
        name={network.headOfficeName}
        code={network.receivingAgentHeadOfficeCode}
        label={t('codes.headOfficeCode')}
      />
    ),
  },
  {
    header: t('columns.payoutType'),
    cell: (network) => (
      <>
        <Chip size="small" label={network.payoutType} sx={{ mr: 1 }} aria-hidden />
        {payoutTypeMeaning(t, network.payoutType, network.payoutTypeDescription)}
      </>
    ),
  },
];

/** Get Anywhere Payout Network (spec §4.2): the networks of the country and mode, payout type explained. */
export function PayoutNetworksTable({
  receivingCountry,
  deliveryMode,
}: {
  receivingCountry: string;
  deliveryMode: string;
}) {
  const { t } = useTranslation();
  const networks = usePayoutNetworks({ receivingCountry, deliveryMode }, true);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" component="div">
        {t('payoutNetworks.types')}{' '}
        {Object.entries(PAYOUT_TYPES).map(([code, meaning]) => (
          <span key={code} style={{ marginRight: 12 }}>
            <strong>{code}</strong> {payoutTypeMeaning(t, code, meaning)}
          </span>
        ))}
      </Typography>
      <QueryStatus
        isPending={networks.isPending}
        isFetching={networks.isFetching}
        error={networks.error}
        isEmpty={networks.data?.data.length === 0}
        empty={t('payoutNetworks.empty', { country: receivingCountry, mode: deliveryMode })}
        onRetry={() => void networks.refetch()}
      >
        {networks.data && (
          <>
            <ResultsHeader
              noun="results.payoutNetworks"
              source={{ total: networks.data.data.length, rows: networks.data.data }}
              columns={csvColumns(t)}
              screen="payout-networks"
              filters={{ receivingCountry, deliveryMode }}
            />
            <ResultsView
              label={t('payoutNetworks.list')}
              rows={networks.data.data}
              columns={columns(t)}
              rowKey={(network) => network.receivingAgentHeadOfficeCode}
            />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
