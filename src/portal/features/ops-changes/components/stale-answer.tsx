import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import { STALE_CHANGE_TYPE, staleChangeProblem } from '../../../../contract/ops-flow';
import { ApiError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/i18n';

/**
 * The answer to an approval made while another change was published: the difference was computed again — said
 * in words with the new counts (the new difference itself is on the page: the change was fetched again). Null
 * for any other error.
 */
export function StaleAnswer({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!(error instanceof ApiError) || error.type !== STALE_CHANGE_TYPE) return null;
  const parsed = staleChangeProblem.safeParse(error.body);
  const counts = parsed.success ? parsed.data.counts : null;
  const identical = parsed.success && parsed.data.change.status === 'failed';
  return (
    <Alert severity="warning" role="alert" data-testid="stale-answer">
      {identical
        ? t('ops.flow.staleIdentical')
        : counts
          ? t('ops.flow.staleAnswer', {
              added: formatNumber(counts.added),
              changed: formatNumber(counts.changed),
              removed: formatNumber(counts.removed),
            })
          : error.sentence}
    </Alert>
  );
}

/** Whether an error is the stale change's 409 (shown by StaleAnswer instead of the generic problem). */
export const isStaleAnswer = (error: unknown) => error instanceof ApiError && error.type === STALE_CHANGE_TYPE;
