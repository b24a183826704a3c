import { useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSelectionOffered } from '../../features/receiving-selector/lib/offered-modes';
import { SlipButton } from '../../features/customer-slip/slip-button';
import { ReportButton } from '../../features/teller-report/report-button';
import { OpenInDesk, branchRecordParts } from '../../features/ops-records/components/open-in-desk';
import { useSession } from '../../features/ops-session/api/get-session';
import { PayoutCurrency, useServedCountry } from '../../features/receiving-selector/components/payout-currency';
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
  const served = useServedCountry();
  // Operations staff with a desk session in this browser get a link to each record's desk page (none asked else).
  const deskSession = useSession();
  return (
    <Screen title={t('agents.title')} purpose={t('agents.purpose')}>
      {offered === 'notOffered' || offered === 'pending' ? null : receivingCountry && deliveryMode ? (
        <>
          <PayoutCurrency receivingCountry={receivingCountry} />
          <AgentSearch
            key={`${receivingCountry}:${deliveryMode}`}
            receivingCountry={receivingCountry}
            deliveryMode={deliveryMode}
            branchFinderHref={`${paths.branches}${selectionSearch(new URLSearchParams(search))}`}
            rowTools={(agent) => (
              <>
                <SlipButton
                  subject={{ kind: 'agent', agent, deliveryMode }}
                  country={served(agent.receivingCountry) ?? {}}
                />
                <ReportButton subject={{ kind: 'agent', agent }} />
                {deskSession.data && (
                  <OpenInDesk
                    {...(agent.bankCode
                      ? {
                          kind: 'branches',
                          parts: branchRecordParts({
                            ...agent,
                            country: agent.receivingCountry,
                            branchName: agent.agentName,
                          }),
                        }
                      : { kind: 'agents', parts: [agent.agentCode] })}
                  />
                )}
              </>
            )}
          />
        </>
      ) : (
        <ChooseSelection />
      )}
    </Screen>
  );
}
