import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_PAGE_SIZE,
  browseQuery,
  codeFormatsOf,
  codePathParams,
  codeQuery,
  type CodeLookupResponse,
  type IssuedIfsc,
} from '../../../contract';
import { issuedIfscBank } from '../../ifsc-registry';
import { ProblemError } from '../../problems';
import { browseBranches } from '../../search/browse';
import { findCode, headOfficesPayingInto } from '../../search/codes';
import { all, branchRules, issuesToParameters, parseLookup, stateOfCountry } from '../../validation';

// Extensions beyond the spec (issue #15; docs/api-extensions.md): the one box for any code, and browsing a
// head office's branches bank → state → city with counts. Answered from the search index like the spec's
// searches (same headers, x-data-version, problem shape and validation); the spec's operations are untouched.
export default async function extensionRoutes(app: FastifyInstance) {
  // Partner data is never stored by a browser or a proxy, as for the spec's lookups.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  app.get('/codes/:code', async (request, reply) => {
    // The path parameter is checked with the headers and the (empty) query, so one 400 names everything.
    const params = codePathParams.safeParse(request.params);
    let query: unknown;
    try {
      query = parseLookup(request, codeQuery, app.reference);
    } catch (error) {
      if (!(error instanceof ProblemError) || params.success) throw error;
      query = error;
    }
    if (!params.success) {
      const problems = [...issuesToParameters(params.error.issues, 'path'), ...(query instanceof ProblemError ? query.errors : [])];
      throw new ProblemError('invalidRequest', `The request has ${problems.length} invalid parameter${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.name).join(', ')}.`, problems);
    }
    const code = params.data.code;
    const index = app.searchIndex.index();
    reply.header('x-data-version', index.version);
    const formats = codeFormatsOf(code);
    const countryName = (country: string) => app.reference.country(country)?.name ?? country;
    const data = findCode(index, code, formats, countryName);
    // A well-formed IFSC the India extract does not hold: is it a real one, and of which bank?
    let issuedIfsc: IssuedIfsc | null = null;
    if (!data.some((match) => match.kind === 'branch') && formats.some((f) => f.kind === 'branch' && f.receivingCountry === 'IN')) {
      const issued = issuedIfscBank(code);
      if (issued) {
        const held = index.extensionView.data.banks.some((bank) => bank.country === 'IN' && bank.code === issued.bankCode);
        issuedIfsc = { ifsc: code, ...issued, headOffices: headOfficesPayingInto(index.extensionView, 'IN', issued.bankCode, held) };
      }
    }
    const answer: CodeLookupResponse = { code, formats, data, issuedIfsc };
    return answer;
  });

  app.get('/banks/browse', async (request, reply) => {
    const query = parseLookup(request, browseQuery, app.reference, all(branchRules, stateOfCountry));
    const index = app.searchIndex.index();
    reply.header('x-data-version', index.version);
    return browseBranches(index.extensionView, { ...query, pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE });
  });
}
