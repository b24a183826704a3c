import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { PAYOUT_TYPES, type PayoutNetwork } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { type CsvColumn } from '../../../components/ui/export-csv-button';
import { ResultsHeader } from '../../../components/ui/results-header';
import { QueryStatus } from '../../../components/ui/query-status';
import { usePayoutNetworks } from '../api/get-payout-networks';

const CSV_COLUMNS: CsvColumn<PayoutNetwork>[] = [
  { header: 'Network', value: (n) => n.networkName },
  { header: 'Head office code', value: (n) => n.receivingAgentHeadOfficeCode },
  { header: 'Head office name', value: (n) => n.headOfficeName },
  { header: 'Payout type', value: (n) => n.payoutType },
  { header: 'Payout type meaning', value: (n) => n.payoutTypeDescription },
  { header: 'Delivery mode', value: (n) => n.deliveryMode },
];

/** Get Anywhere Payout Network (spec §4.2): the networks of the country and mode, payout type explained. */
export function PayoutNetworksTable({ receivingCountry, deliveryMode }: { receivingCountry: string; deliveryMode: string }) {
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
        empty="No payout networks serve this country with this delivery mode."
        onRetry={() => void networks.refetch()}
      >
        {networks.data && (
          <>
            <ResultsHeader total={networks.data.data.length} noun="payout networks" rows={networks.data.data} columns={CSV_COLUMNS} fileName={`payout-networks-${receivingCountry}-${deliveryMode}.csv`} />
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label="Payout networks">
                <TableHead>
                  <TableRow>
                    <TableCell>Network</TableCell>
                    <TableCell>Head office</TableCell>
                    <TableCell>Payout type</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {networks.data.data.map((network) => (
                    <TableRow key={network.receivingAgentHeadOfficeCode} hover>
                      <TableCell>{network.networkName}</TableCell>
                      <TableCell>
                        {network.headOfficeName}
                        <br />
                        <CopyableCode value={network.receivingAgentHeadOfficeCode} label="head office code" />
                      </TableCell>
                      <TableCell>
                        <Chip size="small" label={network.payoutType} sx={{ mr: 1 }} aria-hidden />
                        {network.payoutTypeDescription}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </QueryStatus>
    </Stack>
  );
}
