import { Suspense, lazy, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../../contract/constants';
import { deliveryModeCodeOf } from '../../../contract/delivery-modes';
import { useCode } from '../../features/code-lookup/api/get-code';
import { BranchFinder } from '../../features/branches/components/branch-finder';
import { usePayoutNetworks } from '../../features/payout-networks/api/get-payout-networks';
import { useReceivingCountries } from '../../features/receiving-selector/api/get-receiving-countries';
import { PayoutCurrency } from '../../features/receiving-selector/components/payout-currency';
import { SlipButton } from '../../features/customer-slip/slip-button';
import { ReportButton } from '../../features/teller-report/report-button';
import { OpenInDesk, branchRecordParts } from '../../features/ops-records/components/open-in-desk';
import { useSession } from '../../features/ops-session/api/get-session';
import { ProblemAlert } from '../../components/ui/problem-alert';
import { ChooseSelection, Screen } from '../../components/ui/screen';
import { useDetailParam, useReceivingSelection } from '../../lib/url-state';

// The branch detail is its own chunk, fetched when a teller opens a branch (or follows a link to
// one): it is not part of the first load (docs/compression-and-caching.md).
const BranchDetailDrawer = lazy(() =>
  import('../../features/branches/components/branch-detail').then((m) => ({ default: m.BranchDetailDrawer })),
);

const ACCOUNT_TRANSFER_CODE = deliveryModeCodeOf(ACCOUNT_TRANSFER_TO_OTHER_BANK);

/**
 * What the code box knows of a code the branch finder has no branch of (GET /v1/codes/{code}): a real IFSC not
 * in our list is said to be one, of which bank, with the head offices that pay into that bank.
 */
function CodeTruth({
  code,
  country,
  switchTo,
}: {
  code: string;
  country: string;
  switchTo: (codes: string[]) => ReactNode;
}) {
  const { t } = useTranslation();
  const answer = useCode(code);
  if (answer.isPending) return <LinearProgress aria-label={t('branchDetail.checkingCode', { code })} />;
  const issued = answer.data?.issuedIfsc;
  if (!issued)
    return (
      <Alert severity="info" role="status" data-testid="results-empty">
        {t('branches.noBranchWithCode', { code, country })}
      </Alert>
    );
  const bank = issued.bankName ?? issued.bankCode;
  return (
    <Alert severity="info" role="status" data-testid="results-empty">
      {t('branchDetail.realCode', { code, bank })}{' '}
      {issued.headOffices.length > 0 ? (
        <>
          {t('branchDetail.realCodePaying', { bank })}
          {switchTo(issued.headOffices.map((h) => h.receivingAgentHeadOfficeCode))}.
        </>
      ) : (
        t('branchDetail.realCodeNone', { bank })
      )}
    </Alert>
  );
}

// The route composes features: the code box's answer (code-lookup) for a code the finder has no branch of, and
// the head offices a branch search needs, the country's mode-04 payout networks (spec §4.3: the bank code must
// belong to that head office).
export default function BranchesScreen() {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode, select } = useReceivingSelection();
  // A branch's detail (`branch=` in the URL) opens over the screen, whatever the finder shows.
  const detail = useDetailParam('branch');
  const slip = useDetailParam('slip');
  // Operations staff with a desk session in this browser get a link to the record's desk page (none asked else).
  const deskSession = useSession();
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
        detailHref={detail.href}
        onOpenDetail={detail.open}
        explainCode={(code, switchTo) => <CodeTruth code={code} country={receivingCountry} switchTo={switchTo} />}
        headOffices={(headOffices.data?.data ?? []).map((n) => ({
          code: n.receivingAgentHeadOfficeCode,
          name: n.headOfficeName,
        }))}
      />
    );

  return (
    <Screen title={t('branches.title')} purpose={t('branches.purpose')}>
      {receivingCountry && <PayoutCurrency receivingCountry={receivingCountry} />}
      {content}
      {detail.value !== '' && (
        <Suspense fallback={<LinearProgress aria-label={t('branchDetail.loading')} />}>
          <BranchDetailDrawer
            branchId={detail.value}
            onClose={() => {
              if (slip.value) slip.close();
              detail.close();
            }}
            currencyOf={(code) => countries.data?.data.find((c) => c.code === code)?.currency}
            tools={(branch) => (
              <>
                <SlipButton
                  param="slip"
                  subject={{ kind: 'branch', branch }}
                  country={countries.data?.data.find((c) => c.code === branch.receivingCountry) ?? {}}
                />
                <ReportButton subject={{ kind: 'branch', branch }} />
                {deskSession.data && (
                  <OpenInDesk
                    kind="branches"
                    parts={branchRecordParts({
                      ...branch,
                      country: branch.receivingCountry,
                      addressLine1: branch.branchLocation,
                    })}
                  />
                )}
              </>
            )}
          />
        </Suspense>
      )}
    </Screen>
  );
}
