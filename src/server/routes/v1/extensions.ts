import {
  browseQuery,
  branchCodeName,
  branchDetailQuery,
  branchDetailResponse,
  branchPathParams,
  browseResponse,
  codeFormatsOf,
  codeLookupResponse,
  codePathParams,
  codeQuery,
  type CodeLookupResponse,
  type IssuedIfsc,
} from '../../../contract';
import { issuedIfscBank } from '../../ifsc-registry';
import { ProblemError } from '../../problems';
import { browseBranches } from '../../search/browse';
import { nearCode } from '../../search/code-suggest';
import { branchDetailOf, findCode, headOfficesPayingInto } from '../../search/codes';
import { all, branchRules, stateOfCountry } from '../../validation';
import { FROM_INDEX, defineOperation, withPaging } from './operation';

// Extensions beyond the spec: the one box for any code, and browsing a
// head office's branches bank → state → city with counts. Answered from the search index like the spec's
// searches (same headers, x-data-version, problem shape and validation); the spec's operations are untouched.
export const extensionOperations = [
  defineOperation({
    path: '/v1/codes/{code}',
    operationId: 'findByCode',
    summary: 'Find by code (extension)',
    description:
      "Any code a customer brings: an IFSC (any case, spaces allowed), a Bangladesh routing number, a bank code (India, Bangladesh, Nigeria) or an agent code. Answers every match (a code may be of two kinds), each branch or bank with the delivery-mode-04 head offices that pay into its bank; no match is 200 with an empty list and the formats the code was tried as. A well-formed IFSC the data set does not hold is checked against Razorpay's IFSC list (`issuedIfsc`). A code with no match otherwise is answered with the bank its leading characters name and the held codes one character off (`near`).",
    tag: 'Extensions',
    query: codeQuery,
    // The path parameter is checked with the headers and the (empty) query, so one 400 names everything.
    params: codePathParams,
    response: codeLookupResponse,
    ...FROM_INDEX,
    async handle({ app, searchIndex, params: { code } }) {
      const index = searchIndex();
      const formats = codeFormatsOf(code);
      const countryName = (country: string) => app.reference.country(country)?.name ?? country;
      const data = findCode(index, code, formats, countryName);
      // A well-formed IFSC the India extract does not hold: is it a real one, and of which bank?
      let issuedIfsc: IssuedIfsc | null = null;
      if (
        !data.some((match) => match.kind === 'branch') &&
        formats.some((f) => f.kind === 'branch' && f.receivingCountry === 'IN')
      ) {
        const issued = issuedIfscBank(code);
        if (issued) {
          const held = index.extensionView.data.banks.some(
            (bank) => bank.country === 'IN' && bank.code === issued.bankCode,
          );
          issuedIfsc = {
            ifsc: code,
            ...issued,
            headOffices: headOfficesPayingInto(index.extensionView, 'IN', issued.bankCode, held),
          };
        }
      }
      // No match and not a real IFSC: the bank the code names and the held codes one character off.
      const near = data.length === 0 && !issuedIfsc ? nearCode(index, code, countryName) : null;
      const answer: CodeLookupResponse = { code, formats, data, issuedIfsc, near };
      return answer;
    },
  }),
  defineOperation({
    path: '/v1/banks/browse',
    operationId: 'browseBankBranches',
    summary: 'Browse bank branches (extension)',
    description:
      "The branch finder's parameters plus `state` and `city`: the page of branches, and the facets to narrow it — the head office's banks, the states of the chosen bank, the cities (Bangladesh: districts) of the chosen state — each with its branch count, which is the `totalItems` of the narrower answer.",
    tag: 'Extensions',
    query: browseQuery,
    rules: all(branchRules, stateOfCountry),
    response: browseResponse,
    ...FROM_INDEX,
    async handle({ searchIndex, query }) {
      return browseBranches(searchIndex().extensionView, withPaging(query));
    },
  }),
  defineOperation({
    path: '/v1/banks/branches/{branchId}',
    operationId: 'getBankBranch',
    summary: 'One bank branch in full (extension)',
    description:
      "Every field the data set holds of one branch, by its `branchId` (the id every branch answer gives; stable across imports): the code under the country's name for it (`branchCodeName`: IFSC, Routing number), MICR, SWIFT, contact and the rails (NEFT, RTGS, IMPS, UPI) where held, and the delivery-mode-04 head offices that pay into its bank. An id the data set does not hold is a 404.",
    tag: 'Extensions',
    query: branchDetailQuery,
    params: branchPathParams,
    response: branchDetailResponse,
    ...FROM_INDEX,
    errors: [{ status: 404, description: 'Not Found: the data served now holds no branch with this id.' }],
    async handle({ app, searchIndex, params: { branchId } }) {
      const index = searchIndex();
      const countryName = (country: string) => app.reference.country(country)?.name ?? country;
      const data = branchDetailOf(index, branchId, countryName, (country) => branchCodeName(country, 'en'));
      if (!data) throw new ProblemError('notFound', `No branch has the id ${branchId} in the data served now.`);
      return { data };
    },
  }),
];
