import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n';
import { useAccountTransferHeadOffices } from '../api/get-head-offices';

/**
 * With delivery mode 04 the agent list holds bank branches, each listed once per head office that pays into it:
 * the count says so, with the number of the country's mode-04 head offices (its payout networks). Undefined for
 * other modes, whose rows are agents.
 */
export function useBankBranchCount(receivingCountry: string, isAccountTransfer: boolean) {
  const { t } = useTranslation();
  const headOffices = useAccountTransferHeadOffices(receivingCountry, isAccountTransfer);
  if (!isAccountTransfer) return undefined;
  return (total: number) => {
    const offices = headOffices.data?.data.length;
    const through =
      offices === undefined
        ? t('bankBranchRows.aHeadOffice')
        : t('bankBranchRows.headOffices', { count: offices, formatted: formatNumber(offices) });
    return t('bankBranchRows.count', { count: total, formatted: formatNumber(total), through });
  };
}
