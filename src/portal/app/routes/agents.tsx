import { useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { AgentSearch } from '../../features/agents/components/agent-search';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { selectionSearch, useReceivingSelection } from '../../lib/url-state';
import { paths } from '../paths';

export default function AgentsScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  const search = useSearch();
  return (
    <Screen title={t('agents.title')} purpose={t('agents.purpose')}>
      {receivingCountry && deliveryMode ? (
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
