import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionComparison } from '../../../../contract/ops-versions';
import { opsRequest, withQuery } from '../../../lib/api-client';

// A version to take away (the browser downloads each with the session cookie) and two versions compared.

const versionPath = (id: number) => `/v1/ops/versions/${id}`;
export const versionFileHref = (id: number) => withQuery(`${versionPath(id)}/file`);
export const versionDataHref = (id: number) => withQuery(`${versionPath(id)}/data.csv`);
export const versionNoteHref = (id: number) => withQuery(`${versionPath(id)}/release-note.csv`);

/** Where a diff viewer reads the compared entries, page by page (the desk's diff viewer: its `source`). */
export const comparisonSource = (from: number, to: number) => ({
  path: '/v1/ops/versions/compare',
  query: { from, to },
});

/** The comparison's counts (its first entry only: the viewer reads the pages itself). */
export const useVersionComparison = (from: number, to: number) =>
  useQuery(
    queryOptions({
      queryKey: ['ops', 'versions', 'compare', from, to],
      queryFn: ({ signal }) =>
        opsRequest<VersionComparison>('GET', '/v1/ops/versions/compare', { query: { from, to, pageSize: 1 }, signal }),
    }),
  );
