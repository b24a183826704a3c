import { z } from 'zod';
import { versionCompareQuery, versionComparison, versionIdParams } from '../../../../contract/ops-versions';
import { deskDbOf } from '../../../desk/db';
import { releaseNoteOf } from '../../../desk/release-note';
import { compareVersions } from '../../../desk/version-compare';
import { VERSION_FILE_TYPES, originalFileOf, sendAttachment, versionDataOf } from '../../../desk/version-files';
import { defineOpsOperation } from './ops-operation';

// Published versions to take away and compare: the original file, the data in the import format, a release note
// (desk/version-files.ts, desk/release-note.ts) and the difference between two kept versions
// (desk/version-compare.ts). All while the version's snapshot is kept (DESK_VERSIONS_KEPT); after: a 404 saying so.

const KEPT_404 = {
  status: 404,
  description:
    'Not found: no such version, or it is no longer kept (pruned past DESK_VERSIONS_KEPT), or it has no such file.',
} as const;

/** A kept version's download: what every one of them shares. */
const download = { method: 'GET' as const, access: 'signedIn' as const, params: versionIdParams, errors: [KEPT_404] };
const csvDownload = { ...download, response: z.string(), produces: 'text/csv' as const };

export const versionOperations = [
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/versions/compare',
    operationId: 'compareVersions',
    summary: 'The difference between two kept versions of a kind',
    description:
      'What publishing `to` over `from` changes: records added, removed and changed by natural key, field by field — the entries of a change’s difference (GET /v1/ops/changes/{id}/diff), filtered and paged alike, with the counts in all, per country and per bank. A version compared with the one before it is that version’s change.',
    access: 'signedIn',
    query: versionCompareQuery,
    response: versionComparison,
    errors: [KEPT_404],
    async handle({ app, query: { from, to, ...page } }) {
      return compareVersions(app.store, from, to, page);
    },
  }),
  defineOpsOperation({
    ...download,
    path: '/v1/ops/versions/{id}/file',
    operationId: 'downloadVersionFile',
    summary: 'The file a version was published from, as uploaded',
    description:
      'Byte for byte what the maker uploaded (an XLSX as an XLSX; its SHA-256 is the version’s), under its file name, with a content type by its extension. A rollback’s file is the snapshot it restored. 404 for the baseline and the import command’s versions (no file kept: take data.csv) and once the version is pruned.',
    response: z.string().meta({ format: 'binary' }),
    produces: VERSION_FILE_TYPES,
    async handle({ app, reply, params }) {
      const file = await originalFileOf(deskDbOf(app.store), params.id);
      return sendAttachment(reply, file.fileName, file.bytes);
    },
  }),
  defineOpsOperation({
    ...csvDownload,
    path: '/v1/ops/versions/{id}/data.csv',
    operationId: 'downloadVersionData',
    summary: 'A version’s data in the import format',
    description:
      'Every record of the version’s kind as served after it, as a CSV in the import format (`npm run import`, or a change’s upload, takes it back as it is).',
    async handle({ app, reply, params }) {
      const { version, bytes } = await versionDataOf(deskDbOf(app.store), params.id);
      return sendAttachment(reply, `version-${version.id}-${version.kind}.csv`, bytes);
    },
  }),
  defineOpsOperation({
    ...csvDownload,
    path: '/v1/ops/versions/{id}/release-note.csv',
    operationId: 'downloadVersionReleaseNote',
    summary: 'A version’s release note as CSV',
    description:
      'Columns line, country, bank_code, added, removed, changed, op, code, name: a `total` line, a line per `country` and per `bank` with the records added, removed and changed, then a `record` line per record (its op, code and name). 404 for the baseline.',
    async handle({ app, reply, params }) {
      const note = await releaseNoteOf(deskDbOf(app.store), params.id);
      return sendAttachment(reply, note.fileName, note.csv);
    },
  }),
];
