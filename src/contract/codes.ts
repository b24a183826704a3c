import { z } from 'zod';
import { BANK_CODE_FORMATS } from './bank-codes';
import { MAX_CODE_LENGTH, normaliseCode } from './constants';
import { BRANCH_ID_PATTERN, agent, bankBranch, branchId, branchesQuery, pagination, stateParam } from './lookups';
import { freeText } from './primitives';

// Extensions beyond the spec: find a record from the code a customer brings (one box for any
// code), and browse a head office's branches bank → state → city with counts. The spec's three operations
// are unchanged; these are documented as extensions in the OpenAPI document and docs/api-extensions.md.

// ---------------------------------------------------------------------------------------------------------
// One box for any code: GET /v1/codes/{code}

export const codeKind = z.enum(['branch', 'bank', 'agent']).meta({
  description:
    'branch: a branch routing number (IFSC, Bangladesh routing number); bank: a bank code; agent: an agent location code.',
});
export type CodeKind = z.infer<typeof codeKind>;

/**
 * The two checks of a code below (its characters; at least one letter or digit) as the one pattern the document
 * gives; the OpenAPI test holds the two to the same answers.
 */
const CODE_PATTERN = /^[A-Za-z0-9 \t]*[A-Za-z0-9][A-Za-z0-9 \t]*$/;

export const codePathParams = z.strictObject({
  code: z
    .string({ error: 'is required' })
    .max(MAX_CODE_LENGTH, `must be at most ${MAX_CODE_LENGTH} characters`)
    .regex(/^[A-Za-z0-9 \t]*$/, 'must be letters, digits and spaces only')
    .refine((value) => normaliseCode(value).length > 0, 'must hold at least one letter or digit')
    .transform(normaliseCode)
    .meta({
      description: `Any code: an IFSC (any case, spaces allowed), a Bangladesh routing number, a bank code, or an agent code; at most ${MAX_CODE_LENGTH} characters.`,
      example: 'abhy 0065 002',
      override: { type: 'string', minLength: 1, maxLength: MAX_CODE_LENGTH, pattern: CODE_PATTERN.source },
    }),
});
export const codeQuery = z.strictObject({});

export const codeFormat = z
  .object({
    kind: codeKind,
    receivingCountry: z
      .string()
      .nullable()
      .meta({ description: 'The country whose format it is; null for agent codes (every country).' }),
    description: z.string().meta({ example: 'an IFSC (4 letters, 0, then 6 letters or digits)' }),
  })
  .meta({ id: 'CodeFormat' });
export type CodeFormat = z.infer<typeof codeFormat>;

/** Every format a code of this shape can be, from the country profiles (bank-codes.ts); agent codes always. */
export function codeFormatsOf(code: string): CodeFormat[] {
  const formats: CodeFormat[] = [];
  for (const [country, format] of Object.entries(BANK_CODE_FORMATS)) {
    if (format.branch?.test(code))
      formats.push({ kind: 'branch', receivingCountry: country, description: format.branchDescription! });
    if (format.bank.test(code))
      formats.push({ kind: 'bank', receivingCountry: country, description: format.bankDescription });
  }
  formats.push({ kind: 'agent', receivingCountry: null, description: 'an agent code' });
  return formats;
}

export const payingHeadOffice = z
  .object({
    receivingAgentHeadOfficeCode: z.string().meta({ example: 'ICICIN' }),
    headOfficeName: z.string(),
  })
  .meta({
    id: 'PayingHeadOffice',
    description: 'A delivery-mode-04 head office whose routes_to_banks include the bank.',
  });
export type PayingHeadOffice = z.infer<typeof payingHeadOffice>;

/** What codeMatch and codeSuggestion say of a code: its kind, its country and its bank (null for an agent). */
const codeOwner = {
  kind: codeKind,
  receivingCountry: z.string(),
  receivingCountryName: z.string(),
  bankCode: z.string().nullable(),
  bankName: z.string().nullable(),
};

export const codeMatch = z
  .object({
    ...codeOwner,
    branch: bankBranch
      .omit({ receivingAgentHeadOfficeCode: true })
      .nullable()
      .meta({ description: 'kind branch: the branch.' }),
    branchCount: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'kind bank: how many of its branches the data set holds.' }),
    agent: agent.nullable().meta({ description: 'kind agent: the agent location.' }),
    headOffices: z
      .array(payingHeadOffice)
      .meta({ description: 'kind branch or bank: the head offices that pay into the bank for delivery mode 04.' }),
  })
  .meta({ id: 'CodeMatch' });
export type CodeMatch = z.infer<typeof codeMatch>;

export const issuedIfsc = z
  .object({
    ifsc: z.string(),
    bankCode: z
      .string()
      .meta({ description: 'The bank the IFSC belongs to (a sub-member bank for IFSCs issued through another bank).' }),
    bankName: z.string().nullable(),
    headOffices: z.array(payingHeadOffice).meta({
      description:
        'Head offices that pay into that bank for delivery mode 04 (those that pay into every bank of India, or list it).',
    }),
  })
  .meta({
    id: 'IssuedIfsc',
    description: "A well-formed IFSC the data set does not hold but Razorpay's IFSC list (bundled, offline) does.",
  });
export type IssuedIfsc = z.infer<typeof issuedIfsc>;

export const codeSuggestion = z
  .object({
    code: z.string().meta({ example: 'BARB0COLIND' }),
    ...codeOwner,
    name: z.string().nullable().meta({ description: 'The branch name (kind branch) or agent name (kind agent).' }),
    city: z.string().nullable(),
  })
  .meta({ id: 'CodeSuggestion', description: 'A code the data set holds, one character off the code looked up.' });
export type CodeSuggestion = z.infer<typeof codeSuggestion>;

export const codeBank = z
  .object({
    receivingCountry: z.string(),
    receivingCountryName: z.string(),
    bankCode: z.string().meta({ example: 'BARB' }),
    bankName: z.string(),
    held: z
      .boolean()
      .meta({ description: 'Whether the data set holds the bank (false: the name is from the RBI list).' }),
  })
  .meta({
    id: 'CodeBank',
    description:
      "The bank a branch code's leading characters name (an IFSC's first four letters, a Bangladesh routing number's first three digits).",
  });
export type CodeBank = z.infer<typeof codeBank>;

export const codeNear = z
  .object({
    bank: codeBank.nullable(),
    suggestions: z.array(codeSuggestion).meta({
      description:
        'Up to 5 held codes one character off (one substituted, missing, extra, or two neighbours swapped): branches of the named bank first.',
    }),
  })
  .meta({ id: 'CodeNear' });
export type CodeNear = z.infer<typeof codeNear>;

export const codeLookupResponse = z
  .object({
    code: z
      .string()
      .meta({ description: 'The code as looked up (spaces removed, upper case).', example: 'ABHY0065002' }),
    formats: z.array(codeFormat).meta({ description: 'The formats the code was looked up as.' }),
    data: z.array(codeMatch).meta({ description: 'Every match; empty when none.' }),
    issuedIfsc: issuedIfsc.nullable(),
    near: codeNear.nullable().meta({
      description:
        'With no match and no issued IFSC: the bank the code names and the held codes one character off; null when neither.',
    }),
  })
  .meta({ id: 'CodeLookup' });
export type CodeLookupResponse = z.infer<typeof codeLookupResponse>;

// ---------------------------------------------------------------------------------------------------------
// Browse bank → state → city: GET /v1/banks/browse

/** The branch finder's parameters, plus the state and the city (or district) being browsed. */
export const browseQuery = branchesQuery.extend({
  state: stateParam
    .optional()
    .meta({ description: 'State code of the branches (GET /v1/states): a facet of /v1/banks/browse.' }),
  city: freeText(
    'City of the branches, or their district where a row has no city (Bangladesh); exact, any case.',
  ).optional(),
});
export type BrowseQuery = z.output<typeof browseQuery>;

export const bankFacet = z
  .object({ bankCode: z.string(), bankName: z.string(), count: z.number().int() })
  .meta({ id: 'BankFacet' });
export const stateFacet = z
  .object({ code: z.string(), name: z.string(), count: z.number().int() })
  .meta({ id: 'StateFacet' });
export const cityFacet = z.object({ name: z.string(), count: z.number().int() }).meta({ id: 'CityFacet' });
export type BankFacet = z.infer<typeof bankFacet>;
export type StateFacet = z.infer<typeof stateFacet>;
export type CityFacet = z.infer<typeof cityFacet>;

export const browseResponse = z
  .object({
    data: z.array(bankBranch),
    pagination,
    facets: z.object({
      banks: z.array(bankFacet).meta({
        description:
          'Banks of the head office matching the text filters, with their branch counts (bankCode, state and city not applied).',
      }),
      states: z
        .array(stateFacet)
        .meta({ description: 'States of the branches matching every filter but state and city.' }),
      cities: z
        .array(cityFacet)
        .meta({ description: 'With a state: cities (or districts) of the branches matching every filter but city.' }),
    }),
  })
  .meta({ id: 'BrowseBranches' });
export type BrowseResponse = z.infer<typeof browseResponse>;

// ---------------------------------------------------------------------------------------------------------
// One branch in full: GET /v1/banks/branches/{branchId}

export const branchPathParams = z.strictObject({
  branchId: branchId.regex(BRANCH_ID_PATTERN, 'must be a branch id: 1 to 64 letters, digits or hyphens'),
});
export const branchDetailQuery = z.strictObject({});

const heldText = (description: string) => z.string().nullable().optional().meta({ description });
const heldRail = (rail: string) =>
  z
    .boolean()
    .nullable()
    .optional()
    .meta({ description: `Whether the branch takes ${rail}; null or absent: not held.` });

export const branchDetail = bankBranch
  .omit({ receivingAgentHeadOfficeCode: true })
  .extend({
    receivingCountryName: z.string().meta({ example: 'India' }),
    branchCodeName: z
      .string()
      .meta({ description: 'What the country calls the routing number (English).', example: 'IFSC' }),
    micr: heldText('MICR code, where the data set holds it.'),
    swift: heldText('SWIFT/BIC, where the data set holds it.'),
    contact: heldText('Contact (phone) of the branch, where the data set holds it.'),
    neft: heldRail('NEFT'),
    rtgs: heldRail('RTGS'),
    imps: heldRail('IMPS'),
    upi: heldRail('UPI'),
    headOffices: z
      .array(payingHeadOffice)
      .meta({ description: "The head offices that pay into the branch's bank for delivery mode 04." }),
  })
  .meta({ id: 'BranchDetail' });
export type BranchDetail = z.infer<typeof branchDetail>;

export const branchDetailResponse = z.object({ data: branchDetail }).meta({ id: 'BranchDetailAnswer' });
export type BranchDetailResponse = z.infer<typeof branchDetailResponse>;
