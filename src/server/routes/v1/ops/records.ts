import {
  recordPage,
  recordPathParams,
  recordsPage,
  recordsQuery,
  type RecordFields,
  type RecordPage,
} from '../../../../contract/ops-records';
import { deskDbOf } from '../../../desk/db';
import { readRecordHistory } from '../../../desk/record-history';
import { parseRecordKey, recordKeyOf } from '../../../../contract/record-key';
import { ProblemError } from '../../../problems';
import { recordByKey, searchRecords } from '../../../search/records';
import { headOfficeFields } from '../../../domain/kind-columns';
import { defineOpsOperation } from './ops-operation';

// The published records from the desk: a search over what is served (search/records.ts, from the search index)
// and one record's page with its whole life (desk/record-history.ts, from the desk's tables).

export const recordOperations = [
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/records',
    operationId: 'searchRecords',
    summary: 'Search the published records',
    description:
      'The served branches, head offices (partners) or agents of the data version this instance serves, in answer order: by code (routing number or IFSC, bank code, agent code, head office code: exact, any case) or by a part of a name, bank or head office name, city, district or address line 1 (any case), in one receiving country or all. Each match carries its `key` for `GET /v1/ops/records/{kind}/{key}`.',
    access: 'signedIn',
    query: recordsQuery,
    response: recordsPage,
    async handle({ app, request, query }) {
      const index = app.searchIndex.index(request);
      const found = searchRecords(index.extensionView, query);
      return {
        data: found.data.map((r) => ({ ...r.match, key: recordKeyOf(r.parts) })),
        pagination: found.pagination,
      };
    },
  }),
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/records/{kind}/{key}',
    operationId: 'getRecord',
    summary: 'One published record and its whole life',
    description:
      "The record as served now (null once removed) and every published version that added, changed or removed it, newest first: when, who staged and approved it, the checker's comment, the file name and SHA-256, and its fields before and after. The history is kept when the version's snapshot is pruned (DESK_VERSIONS_KEPT). A record never served and never in a published version is a 404.",
    access: 'signedIn',
    params: recordPathParams,
    response: recordPage,
    errors: [{ status: 404, description: 'Not Found: no record of the kind has this key, now or in any version.' }],
    async handle({ app, request, params: { kind, key } }) {
      const parts = parseRecordKey(key);
      if (!parts)
        throw new ProblemError('invalidRequest', `Invalid request: path key is not a record key.`, [
          { name: 'key', in: 'path', message: 'not a record key (its parts percent-encoded, joined with ~)' },
        ]);
      const index = app.searchIndex.index(request);
      const db = deskDbOf(app.store);
      const served = recordByKey(index.extensionView, kind, parts);
      let record: RecordFields | null = null;
      if (served && 'fields' in served) record = served.fields;
      else if (served) {
        const [row] = await db.all('SELECT network_name, demo_locations FROM head_offices WHERE code = ?', [
          served.office.code,
        ]);
        record = headOfficeFields({
          ...served.office,
          networkName: String(row?.network_name ?? ''),
          demoLocations: Number(row?.demo_locations ?? 0),
        });
      }
      const history = await readRecordHistory(db, kind, parts);
      if (!record && history.length === 0)
        throw new ProblemError('notFound', `No ${kind} record has the key ${key}, now or in any published version.`);
      const answer: RecordPage = { kind, key: recordKeyOf(parts), record, history };
      return answer;
    },
  }),
];
