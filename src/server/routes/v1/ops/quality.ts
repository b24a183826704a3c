import { z } from 'zod';
import {
  qualityCheckId,
  qualityReport as qualityReportSchema,
  type QualityFinding,
} from '../../../../contract/ops-quality';
import { qualityCsv, qualityFindings, reportOfFindings } from '../../../desk/quality';
import { sendAttachment } from '../../../desk/version-files';
import type { LookupStore } from '../../../store/store';
import { defineOpsOperation } from './ops-operation';

// The data-quality report of the published data over HTTP: each check's count and first findings,
// and every finding of one check as CSV. The findings are computed once per data version (the checks read the
// whole data set) and kept until the served version changes, so a page reload or a download does not repeat
// them; a change published by another instance is a new version, seen at the next request.

let cached: { store: LookupStore; version: string; findings: QualityFinding[] } | undefined;

async function findingsOf(store: LookupStore) {
  const version = await store.dataVersion();
  if (cached?.store === store && cached.version === version) return cached;
  const { dataSet, version: read } = await store.readDataSet();
  cached = { store, version: read, findings: qualityFindings(dataSet) };
  return cached;
}

const checkParam = z.strictObject({ check: qualityCheckId });

export const qualityOperations = [
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/quality',
    operationId: 'getQualityReport',
    summary: 'The data-quality report of the published data',
    description:
      "Every check (duplicate codes, branches without district where the country requires one, states not in the country's list, banks no head office pays into, mode-04 head offices paying into no bank, agent phones that do not fit the country) with its count and its first 20 findings.",
    access: 'signedIn',
    response: qualityReportSchema,
    async handle({ app }) {
      const { version, findings } = await findingsOf(app.store);
      return reportOfFindings(findings, { dataVersion: version });
    },
  }),
  defineOpsOperation({
    method: 'GET',
    path: '/v1/ops/quality/{check}.csv',
    operationId: 'downloadQualityFindings',
    summary: "One check's findings as CSV",
    description: 'Every finding of the check (check, record, country, code, name, field, value, detail).',
    access: 'signedIn',
    params: checkParam,
    response: z.string(),
    produces: 'text/csv',
    async handle({ app, reply, params }) {
      const { findings } = await findingsOf(app.store);
      return sendAttachment(reply, `quality-${params.check}.csv`, qualityCsv(findings, params.check));
    },
  }),
];
