import './slip-i18n';
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import GlobalStyles from '@mui/material/GlobalStyles';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import PrintIcon from '@mui/icons-material/Print';
import ShareIcon from '@mui/icons-material/Share';
import { useTranslation } from 'react-i18next';
import { DetailList } from '../../components/ui/detail-list';
import { currencyLabel } from '../../lib/currency';
import { slipRows, slipText, type SlipCountry, type SlipSubject } from './slip-details';

const TITLE_ID = 'customer-slip-title';
const ROOT_CLASS = 'customer-slip';

// Printed, the slip is the page: everything else the portal draws (the app, the drawer it was opened from) and
// the slip's own buttons are left out, so one slip is one sheet.
const PRINT_STYLES = {
  '@media print': {
    '@page': { margin: '15mm' },
    [`body > *:not(.${ROOT_CLASS})`]: { display: 'none !important' },
    [`.${ROOT_CLASS}`]: { position: 'static !important' },
    [`.${ROOT_CLASS} .MuiBackdrop-root, .${ROOT_CLASS} .slip-no-print`]: { display: 'none !important' },
    [`.${ROOT_CLASS} .MuiDialog-container`]: { display: 'block !important', height: 'auto !important' },
    [`.${ROOT_CLASS} .MuiDialog-paper`]: {
      margin: '0 !important',
      maxWidth: 'none !important',
      maxHeight: 'none !important',
      width: '100% !important',
      boxShadow: 'none !important',
      overflow: 'visible !important',
    },
    [`.${ROOT_CLASS} .MuiDialogContent-root`]: { overflow: 'visible !important' },
  },
} as const;

type Notice = { severity: 'success' | 'info' | 'error'; text: string } | null;

/**
 * What the teller hands the customer, for one branch or agent: a one-page print view, "copy all details" (plain
 * text, the rows of the slip) and share (the Web Share API where the browser has it, else the copy).
 */
export default function CustomerSlipDialog({
  subject,
  country,
  onClose,
}: {
  subject: SlipSubject;
  country: SlipCountry;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [notice, setNotice] = useState<Notice>(null);
  const name = subject.kind === 'branch' ? subject.branch.branchName : subject.agent.agentName;
  const rows = slipRows(
    subject,
    { name: country.name, currency: country.currency && currencyLabel(country.currency, i18n.language) },
    t,
    i18n.language,
  );
  const text = slipText(t('slip.title'), rows);

  const copy = async (done: string, severity: 'success' | 'info' = 'success') => {
    try {
      await navigator.clipboard.writeText(text);
      setNotice({ severity, text: done });
    } catch {
      setNotice({ severity: 'error', text: t('slip.copyFailed') });
    }
  };
  const share = async () => {
    if (typeof navigator.share !== 'function') return copy(t('slip.shareFallback'), 'info');
    try {
      await navigator.share({ title: `${t('slip.title')}: ${name}`, text });
      setNotice({ severity: 'success', text: t('slip.shared') });
    } catch (error) {
      // The teller closed the share sheet: nothing to say. Any other refusal: the copy instead.
      if (!(error instanceof DOMException && error.name === 'AbortError')) await copy(t('slip.shareFallback'), 'info');
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      className={ROOT_CLASS}
      aria-labelledby={TITLE_ID}
      fullWidth
      maxWidth="sm"
      data-testid="customer-slip"
    >
      <GlobalStyles styles={PRINT_STYLES} />
      <DialogTitle id={TITLE_ID} component="h2" sx={{ pb: 0 }}>
        {name}
      </DialogTitle>
      <DialogContent>
        <Box component="p" sx={{ typography: 'body2', color: 'text.secondary', mt: 0, mb: 2 }}>
          {t('slip.title')}
        </Box>
        {/* Terms and values in the browser's default look (a value indented 40px in its column). */}
        <DetailList rows={rows} testIdPrefix="slip" sx={{ columnGap: 2, rowGap: 1 }} />
        <Box role="status" className="slip-no-print" sx={{ mt: 2, minHeight: 0 }}>
          {notice && (
            <Alert severity={notice.severity} role="none" data-testid="slip-notice">
              {notice.text}
            </Alert>
          )}
        </Box>
      </DialogContent>
      <DialogActions className="slip-no-print" sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button startIcon={<PrintIcon />} onClick={() => window.print()}>
          {t('slip.print')}
        </Button>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy(t('slip.copied'))}>
          {t('slip.copyAll')}
        </Button>
        <Button startIcon={<ShareIcon />} onClick={() => void share()}>
          {t('slip.share')}
        </Button>
        <Button onClick={onClose} aria-label={t('slip.close')}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
