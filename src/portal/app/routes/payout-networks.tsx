import { useTranslation } from 'react-i18next';
import { PayoutCurrency } from '../../features/receiving-selector/components/payout-currency';
import { PayoutNetworksTable } from '../../features/payout-networks/components/payout-networks-table';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { useReceivingSelection } from '../../lib/url-state';

export default function PayoutNetworksScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  return (
    <Screen title={t('payoutNetworks.title')} purpose={t('payoutNetworks.purpose')}>
      {receivingCountry && deliveryMode ? (
        <>
          <PayoutCurrency receivingCountry={receivingCountry} />
          <PayoutNetworksTable receivingCountry={receivingCountry} deliveryMode={deliveryMode} />
        </>
      ) : (
        <ChooseSelection />
      )}
    </Screen>
  );
}
