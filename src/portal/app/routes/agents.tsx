import { useLocation } from 'react-router';
import { AgentSearch } from '../../features/agents/components/agent-search';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { selectionSearch, useReceivingSelection } from '../../lib/url-state';
import { paths } from '../paths';

export function Component() {
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  const location = useLocation();
  return (
    <Screen title="Agents" purpose="Receiving agents of the country for the delivery mode, by state and name.">
      {receivingCountry && deliveryMode ? (
        <AgentSearch
          key={`${receivingCountry}:${deliveryMode}`}
          receivingCountry={receivingCountry}
          deliveryMode={deliveryMode}
          branchFinderHref={`${paths.branches}${selectionSearch(new URLSearchParams(location.search))}`}
        />
      ) : (
        <ChooseSelection />
      )}
    </Screen>
  );
}
