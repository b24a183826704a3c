import type { TFunction } from 'i18next';

/** Whether a branch takes a payment rail, as the branch detail and the customer slip say it. */
export const railText = (t: TFunction, held: boolean | null | undefined) =>
  held === null || held === undefined ? t('branchDetail.notHeld') : held ? t('branchDetail.yes') : t('branchDetail.no');
