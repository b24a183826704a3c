import { lazy, useState } from 'react';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { useTranslation } from 'react-i18next';
import { DialogButton } from '../../components/ui/dialog-button';
import { useDetailParam } from '../../lib/url-state';
import type { SlipCountry, SlipSubject } from './slip-details';

// The slip (its dialog, print styles and texts) is its own chunk, fetched when a teller opens one: it is not
// part of the first load (docs/compression-and-caching.md).
const CustomerSlipDialog = lazy(() => import('./customer-slip-dialog'));

/**
 * "Customer slip" for a branch or an agent: opens the slip over the screen. With `param`, the slip is open while
 * that URL parameter is (`slip=1` beside `branch=…`): its print view has a link, and Back closes it.
 */
export function SlipButton({
  subject,
  country,
  param,
}: {
  subject: SlipSubject;
  country: SlipCountry;
  param?: string;
}) {
  const { t } = useTranslation();
  const [openHere, setOpenHere] = useState(false);
  const inUrl = useDetailParam(param ?? '');
  const open = param ? inUrl.value !== '' : openHere;
  const setOpen = (value: boolean) => (!param ? setOpenHere(value) : value ? inUrl.open('1') : inUrl.close());
  const name = subject.kind === 'branch' ? subject.branch.branchName : subject.agent.agentName;
  return (
    <DialogButton
      startIcon={<ReceiptLongIcon />}
      aria-label={t('common.customerSlipFor', { name })}
      open={open}
      onOpen={() => setOpen(true)}
      dialog={<CustomerSlipDialog subject={subject} country={country} onClose={() => setOpen(false)} />}
    >
      {t('common.customerSlip')}
    </DialogButton>
  );
}
