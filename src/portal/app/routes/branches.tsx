import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../../contract/constants';
import { deliveryModeCodeOf } from '../../../contract/delivery-modes';
import { BranchFinder } from '../../features/branches/components/branch-finder';
import { usePayoutNetworks } from '../../features/payout-networks/api/get-payout-networks';
import { useReceivingCountries } from '../../features/receiving-selector/api/get-receiving-countries';
import { ProblemAlert } from '../../components/ui/problem-alert';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { useReceivingSelection } from '../../lib/url-state';

const ACCOUNT_TRANSFER_CODE = deliveryModeCodeOf(ACCOUNT_TRANSFER_TO_OTHER_BANK);

// The route composes two features: the head offices a branch search needs are the country's mode-04
// payout networks (spec §4.3: the bank code must belong to that head office).
export default function BranchesScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode, select } = useReceivingSelection();
  const isAccountTransfer = Number(deliveryMode) === ACCOUNT_TRANSFER_TO_OTHER_BANK;
  const countries = useReceivingCountries();
  const headOffices = usePayoutNetworks(
    { receivingCountry, deliveryMode: ACCOUNT_TRANSFER_CODE },
    Boolean(receivingCountry) && isAccountTransfer,
  );
  const offersAccountTransfer = countries.data?.data
    .find((c) => c.code === receivingCountry)
    ?.deliveryModes.includes(ACCOUNT_TRANSFER_CODE);

  let content;
  if (!receivingCountry || !deliveryMode) content = <ChooseSelection />;
  else if (!isAccountTransfer)
    content = (
      <Alert
        severity="info"
        role="status"
        action={
          offersAccountTransfer ? (
            <Button color="inherit" size="small" onClick={() => select(receivingCountry, ACCOUNT_TRANSFER_CODE)}>
              {t('branches.switchTo04')}
            </Button>
          ) : undefined
        }
      >
        {t('branches.mode04Only')}
        {offersAccountTransfer === false && t('branches.notOffered', { country: receivingCountry })}
      </Alert>
    );
  else if (headOffices.isPending) content = <LinearProgress aria-label={t('branches.loadingHeadOffices')} />;
  else if (headOffices.error)
    content = <ProblemAlert error={headOffices.error} onRetry={() => void headOffices.refetch()} />;
  else
    content = (
      <BranchFinder
        key={receivingCountry}
        receivingCountry={receivingCountry}
        deliveryMode={deliveryMode}
        headOffices={(headOffices.data?.data ?? []).map((n) => ({
          code: n.receivingAgentHeadOfficeCode,
          name: n.headOfficeName,
        }))}
      />
    );

  return (
    <Screen title={t('branches.title')} purpose={t('branches.purpose')}>
      {content}
    </Screen>
  );
}
