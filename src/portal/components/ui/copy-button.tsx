import { useState, type ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslation } from 'react-i18next';

/** Copies a code to the clipboard in one click; the tooltip confirms it. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Tooltip title={copied ? t('copy.copied') : t('copy.copy', { label })}>
      <IconButton size="small" aria-label={t('copy.copyValue', { label, value })} onClick={() => void copy()}>
        {copied ? <CheckIcon fontSize="inherit" color="success" /> : <ContentCopyIcon fontSize="inherit" />}
      </IconButton>
    </Tooltip>
  );
}

/** A code shown in monospace with its copy button. */
export function CopyableCode({ value, label }: { value: string | null; label: string }) {
  const { t } = useTranslation();
  if (!value) return <span aria-label={t('copy.none', { label })}>—</span>;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      <code>{value}</code>
      <CopyButton value={value} label={label} />
    </span>
  );
}

/** A name over its code (a results table's cell), the code with its copy button. */
export function NamedCode({ name, code, label }: { name: ReactNode; code: string | null; label: string }) {
  return (
    <>
      {name}
      <br />
      <CopyableCode value={code} label={label} />
    </>
  );
}
