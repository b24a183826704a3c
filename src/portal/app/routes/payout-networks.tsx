import { useTranslation } from 'react-i18next';
import { useSelectionOffered } from '../../features/receiving-selector/lib/offered-modes';
import { PayoutCurrency } from '../../features/receiving-selector/components/payout-currency';
import { PayoutNetworksTable } from '../../features/payout-networks/components/payout-networks-table';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { useReceivingSelection } from '../../lib/url-state';

export default function PayoutNetworksScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  // A mode the country does not offer: the selector says so and offers the way back; no request is sent.
  const offered = useSelectionOffered(receivingCountry, deliveryMode);
  return (
    <Screen title={t('payoutNetworks.title')} purpose={t('payoutNetworks.purpose')}>
      {offered === 'notOffered' || offered === 'pending' ? null : receivingCountry && deliveryMode ? (
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
