import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PAYOUT_TYPES, type PayoutNetwork } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { type CsvColumn } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { ResultsView, type ResultColumn } from '../../../components/ui/results-view';
import { usePayoutNetworks } from '../api/get-payout-networks';

const CSV_COLUMNS: CsvColumn<PayoutNetwork>[] = [
  { header: 'Network', value: (n) => n.networkName },
  { header: 'Head office code', value: (n) => n.receivingAgentHeadOfficeCode, code: true },
  { header: 'Head office name', value: (n) => n.headOfficeName },
  { header: 'Payout type', value: (n) => n.payoutType },
  { header: 'Payout type meaning', value: (n) => n.payoutTypeDescription },
  { header: 'Delivery mode', value: (n) => n.deliveryMode, code: true },
];

const COLUMNS: ResultColumn<PayoutNetwork>[] = [
  { header: 'Network', cell: (network) => network.networkName },
  {
    header: 'Head office',
    cell: (network) => (
      <>
        {network.headOfficeName}
        <br />
        <CopyableCode value={network.receivingAgentHeadOfficeCode} label="head office code" />
      </>
    ),
  },
  {
    header: 'Payout type',
    cell: (network) => (
      <>
        <Chip size="small" label={network.payoutType} sx={{ mr: 1 }} aria-hidden />
        {network.payoutTypeDescription}
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
  const networks = usePayoutNetworks({ receivingCountry, deliveryMode }, true);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" component="div">
        Payout types:{' '}
        {Object.entries(PAYOUT_TYPES).map(([code, meaning]) => (
          <span key={code} style={{ marginRight: 12 }}>
            <strong>{code}</strong> {meaning}
          </span>
        ))}
      </Typography>
      <QueryStatus
        isPending={networks.isPending}
        isFetching={networks.isFetching}
        error={networks.error}
        isEmpty={networks.data?.data.length === 0}
        empty={`No payout networks serve ${receivingCountry} with delivery mode ${deliveryMode}.`}
        onRetry={() => void networks.refetch()}
      >
        {networks.data && (
          <>
            <ResultsHeader
              noun={{ one: 'payout network', other: 'payout networks' }}
              source={{ total: networks.data.data.length, rows: networks.data.data }}
              columns={CSV_COLUMNS}
              screen="payout-networks"
              filters={{ receivingCountry, deliveryMode }}
            />
            <ResultsView
              label="Payout networks"
              rows={networks.data.data}
              columns={COLUMNS}
              rowKey={(network) => network.receivingAgentHeadOfficeCode}
            />
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
