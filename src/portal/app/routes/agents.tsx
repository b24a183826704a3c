import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AgentSearch } from '../../features/agents/components/agent-search';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { selectionSearch, useReceivingSelection } from '../../lib/url-state';
import { paths } from '../paths';

export function Component() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  const location = useLocation();
  return (
    <Screen title={t('agents.title')} purpose={t('agents.purpose')}>
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
