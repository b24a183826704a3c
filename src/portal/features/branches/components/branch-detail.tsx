import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { NoRoutingNumberNote } from './no-routing-number';
import type { BranchDetail } from '../../../../contract';
import { branchCodeName, paymentRails } from '../../../../contract/countries';
import { CopyButton } from '../../../components/ui/copy-button';
import { DetailList } from '../../../components/ui/detail-list';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { useBranch } from '../api/get-branch';
import { currencyLabel } from '../../../lib/currency';
import { railText } from '../../../lib/payment-rails';

const TITLE_ID = 'branch-detail-title';

/** One value with its copy button; a value the data set does not hold says so. */
function Value({ value, label }: { value: string | null | undefined; label: string }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '')
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        {t('branchDetail.notHeld')}
      </Typography>
    );
  return (
    <span>
      <Box component="span" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {value}
      </Box>
      <CopyButton value={value} label={label} />
    </span>
  );
}

function Detail({ branch, currency }: { branch: BranchDetail; currency: string | undefined }) {
  const { t, i18n } = useTranslation();
  const codeName = branchCodeName(branch.receivingCountry, i18n.language);
  const text = (label: string, value: string | null | undefined, key: string) => ({
    label,
    key,
    value: <Value value={value} label={label} />,
  });
  const state = branch.state ? `${branch.stateName ?? branch.state} (${branch.state})` : null;
  // The rails of the country's payment systems (India's NEFT, RTGS, IMPS, UPI), only where they apply.
  const rails = paymentRails(branch.receivingCountry);
  return (
    <Stack spacing={2}>
      {!branch.routingNumber && (
        <NoRoutingNumberNote receivingCountry={branch.receivingCountry} name={branch.receivingCountryName} />
      )}
      <DetailList
        testIdPrefix="branch-detail"
        sx={{
          columnGap: 1.5,
          rowGap: 0.75,
          alignItems: 'baseline',
          '& > dt': { typography: 'caption', color: 'text.secondary' },
          '& > dd': { typography: 'body2', m: 0 },
        }}
        rows={[
          ...(branch.routingNumber ? [text(codeName, branch.routingNumber, 'code')] : []),
          text(t('columns.bankName'), branch.bankName, 'bankName'),
          text(t('columns.bankCode'), branch.bankCode, 'bankCode'),
          text(t('branchDetail.micr'), branch.micr, 'micr'),
          text(t('branchDetail.swift'), branch.swift, 'swift'),
          text(t('columns.branch'), branch.branchName, 'branchName'),
          text(t('columns.addressLine1'), branch.branchLocation, 'addressLine1'),
          text(t('columns.addressLine2'), branch.address, 'addressLine2'),
          text(t('columns.city'), branch.city, 'city'),
          text(t('columns.district'), branch.district, 'district'),
          text(t('columns.state'), state, 'state'),
          text(t('branchDetail.country'), `${branch.receivingCountryName} (${branch.receivingCountry})`, 'country'),
          text(t('common.payoutCurrency'), currency && currencyLabel(currency, i18n.language), 'currency'),
          text(t('branchDetail.contact'), branch.contact, 'contact'),
          ...(rails.length > 0
            ? [
                {
                  label: t('branchDetail.rails'),
                  key: 'rails',
                  value: rails.map((name) => (
                    <div key={name}>
                      {t(`branchDetail.${name}`)}: {railText(t, branch[name])}
                    </div>
                  )),
                },
              ]
            : []),
          text(t('branchDetail.branchId'), branch.branchId, 'branchId'),
        ]}
      />
      <div>
        <Typography component="h3" variant="subtitle2" gutterBottom>
          {t('branchDetail.headOffices', { count: branch.headOffices.length })}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid="branch-detail-head-offices">
          {branch.headOffices.map((office) => (
            <li key={office.receivingAgentHeadOfficeCode}>
              <Typography variant="body2" component="span">
                {office.headOfficeName} ({office.receivingAgentHeadOfficeCode})
              </Typography>
              <CopyButton value={office.receivingAgentHeadOfficeCode} label={t('columns.headOfficeCode')} />
            </li>
          ))}
        </Box>
      </div>
    </Stack>
  );
}

/**
 * One branch in full (GET /v1/banks/branches/{branchId}), over the screen that opened it: the URL carries the
 * branch id (`branch=`), so the view can be linked, reloaded and closed with Back.
 */
export function BranchDetailDrawer({
  branchId,
  onClose,
  currencyOf,
  tools,
}: {
  branchId: string;
  onClose: () => void;
  /** The payout currency of a receiving country (the app's GET /v1/receiving-countries). */
  currencyOf: (country: string) => string | undefined;
  /** What the app adds under the branch's name (the customer slip). */
  tools?: (branch: BranchDetail) => ReactNode;
}) {
  const { t } = useTranslation();
  const branch = useBranch(branchId);
  const data = branch.data?.data;
  return (
    <Drawer
      anchor="right"
      open={branchId !== ''}
      onClose={onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': TITLE_ID,
          sx: { width: { xs: '100%', sm: 460 }, p: 2 },
        } as object,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: 1 }}>
        <div>
          <Typography id={TITLE_ID} component="h2" variant="h6">
            {data ? data.branchName : t('branchDetail.title')}
          </Typography>
          {data && (
            <Typography variant="body2" color="text.secondary">
              {data.bankName}
            </Typography>
          )}
          {data && tools?.(data)}
        </div>
        <IconButton aria-label={t('branchDetail.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      {branch.isPending && <LinearProgress aria-label={t('branchDetail.loading')} />}
      {branch.error && <ProblemAlert error={branch.error} onRetry={() => void branch.refetch()} />}
      {data && <Detail branch={data} currency={currencyOf(data.receivingCountry)} />}
    </Drawer>
  );
}
