import DownloadIcon from '@mui/icons-material/Download';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import type { VersionSummary } from '../../../../contract/ops-changes';
import { versionDataHref, versionFileHref, versionNoteHref } from '../api/version-files';

/**
 * A kept version's downloads: the file it was published from as uploaded (none for the baseline), its data in
 * the import format and its release note (none for the baseline: it changed nothing).
 */
export function VersionDownloads({ version }: { version: VersionSummary }) {
  const { t } = useTranslation();
  if (!version.restorable) return null;
  const links = [
    ...(version.changeId
      ? [{ key: 'file', href: versionFileHref(version.id), download: version.fileName, text: t('ops.history.file') }]
      : []),
    {
      key: 'data',
      href: versionDataHref(version.id),
      download: `version-${version.id}-${version.kind}.csv`,
      text: t('ops.history.data'),
    },
    ...(version.changeId
      ? [
          {
            key: 'note',
            href: versionNoteHref(version.id),
            download: `version-${version.id}-${version.kind}-release-note.csv`,
            text: t('ops.history.note'),
          },
        ]
      : []),
  ];
  return (
    <Stack
      component="ul"
      spacing={0.5}
      sx={{ listStyle: 'none', p: 0, m: 0 }}
      aria-label={t('ops.history.downloadsOf', { version: version.id })}
    >
      {links.map((link) => (
        <li key={link.key}>
          <Link
            href={link.href}
            download={link.download}
            data-testid={`version-${link.key}`}
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, minHeight: 24 }}
          >
            <DownloadIcon fontSize="small" aria-hidden />
            {link.text}
          </Link>
        </li>
      ))}
    </Stack>
  );
}
