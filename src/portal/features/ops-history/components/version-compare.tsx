import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ComponentType } from 'react';
import type { ChangeKind, DiffSummary, GroupCounts, VersionSummary } from '../../../../contract/ops-changes';
import { formatTime } from '../../../components/ui/ops-format';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsSection } from '../../../components/ui/ops-section';
import { OpsSelect } from '../../../components/ui/ops-select-filter';
import { comparisonSource, useVersionComparison } from '../api/version-files';

/**
 * The desk's diff viewer (ops-changes), handed in where the screens are composed: the counts of a difference
 * and where its entries are read, page by page.
 */
export type DiffViewerComponent = ComponentType<{
  change: {
    id: string;
    kind: ChangeKind;
    byBank: GroupCounts[];
    diff: Pick<DiffSummary, 'counts' | 'unchanged' | 'byCountry'>;
  };
  source: ReturnType<typeof comparisonSource>;
}>;

/**
 * Two kept versions of one kind compared in the desk's diff viewer: what publishing the later over the earlier
 * changes, record by record (the entries a change's difference has).
 */
export function VersionCompare({
  versions,
  diffViewer: DiffViewer,
}: {
  versions: VersionSummary[];
  diffViewer: DiffViewerComponent;
}) {
  const { t } = useTranslation();
  const kept = versions.filter((v) => v.restorable);
  const [from, setFrom] = useState<number | ''>('');
  const [to, setTo] = useState<number | ''>('');
  const [compared, setCompared] = useState<{ from: number; to: number } | null>(null);
  const fromVersion = kept.find((v) => v.id === from);
  const targets = kept.filter((v) => v.id !== from && (!fromVersion || v.kind === fromVersion.kind));
  const label = (id: number) => {
    const { kind, publishedAt } = kept.find((v) => v.id === id)!;
    return t('ops.history.compareOption', { version: id, kind: t(`ops.kinds.${kind}`), date: formatTime(publishedAt) });
  };
  return (
    <OpsSection id="compare-title" title={t('ops.history.compareTitle')}>
      {kept.length < 2 ? (
        <Typography>{t('ops.history.compareNone')}</Typography>
      ) : (
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { sm: 'center' } }}
          onSubmit={(event) => {
            event.preventDefault();
            if (from !== '' && to !== '') setCompared({ from, to });
          }}
        >
          <OpsSelect
            label={t('ops.history.compareFrom')}
            value={from}
            values={kept.map((v) => v.id)}
            optionLabel={label}
            onChange={(id) => {
              setFrom(id);
              const kind = kept.find((v) => v.id === id)?.kind;
              if (to !== '' && (to === id || kept.find((v) => v.id === to)?.kind !== kind)) setTo('');
            }}
            sx={{ minWidth: 240 }}
          />
          <OpsSelect
            label={t('ops.history.compareTo')}
            value={to}
            values={targets.map((v) => v.id)}
            optionLabel={label}
            onChange={setTo}
            sx={{ minWidth: 240 }}
          />
          <Button type="submit" variant="contained" disabled={from === '' || to === ''}>
            {t('ops.history.compare')}
          </Button>
        </Stack>
      )}
      {compared && <Comparison key={`${compared.from}-${compared.to}`} {...compared} diffViewer={DiffViewer} />}
    </OpsSection>
  );
}

function Comparison({
  from,
  to,
  diffViewer: DiffViewer,
}: {
  from: number;
  to: number;
  diffViewer: DiffViewerComponent;
}) {
  const { t } = useTranslation();
  const query = useVersionComparison(from, to);
  return (
    <Stack spacing={1} data-testid="version-comparison">
      <Typography role="status" sx={{ fontWeight: 500 }}>
        {t('ops.history.comparing', { from, to })}
      </Typography>
      <OpsQueryState query={query} />
      {query.data && (
        <DiffViewer
          change={{
            id: `versions-${from}-${to}`,
            kind: query.data.kind,
            byBank: query.data.byBank,
            diff: { counts: query.data.counts, unchanged: query.data.unchanged, byCountry: query.data.byCountry },
          }}
          source={comparisonSource(from, to)}
        />
      )}
    </Stack>
  );
}
