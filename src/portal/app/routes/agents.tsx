import { useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSelectionOffered } from '../../features/receiving-selector/lib/offered-modes';
import { AgentSearch } from '../../features/agents/components/agent-search';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { selectionSearch, useReceivingSelection } from '../../lib/url-state';
import { paths } from '../paths';

export default function AgentsScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  // A mode the country does not offer: the selector says so and offers the way back; no request is sent.
  const offered = useSelectionOffered(receivingCountry, deliveryMode);
  const search = useSearch();
  return (
    <Screen title={t('agents.title')} purpose={t('agents.purpose')}>
      {offered === 'notOffered' || offered === 'pending' ? null : receivingCountry && deliveryMode ? (
        <AgentSearch
          key={`${receivingCountry}:${deliveryMode}`}
          receivingCountry={receivingCountry}
          deliveryMode={deliveryMode}
          branchFinderHref={`${paths.branches}${selectionSearch(new URLSearchParams(search))}`}
        />
      ) : (
        <ChooseSelection />
      )}
    </Screen>
  );
}
