import { PayoutNetworksTable } from '../../features/payout-networks/components/payout-networks-table';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { useReceivingSelection } from '../../lib/url-state';

export function Component() {
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  return (
    <Screen
      title="Payout networks"
      purpose="Where the beneficiary can be paid: the networks of the country for the delivery mode."
    >
      {receivingCountry && deliveryMode ? (
        <PayoutNetworksTable receivingCountry={receivingCountry} deliveryMode={deliveryMode} />
      ) : (
        <ChooseSelection />
      )}
    </Screen>
  );
}
