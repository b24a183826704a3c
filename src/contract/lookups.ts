import { z } from 'zod';
import { FINANCIAL_ID_PATTERN, PAYOUT_TYPES, UUID_SHAPED_PATTERN } from './constants';
import { MAX_INT32, digitsInteger, freeText, queryString } from './primitives';

// The contract of the lookup API: every header, query parameter and record, in one place. The server
// validates with these schemas, the portal's forms and fetchers import them, and the OpenAPI document is
// generated from them (src/server/openapi.ts). Field names are the project's; the spec leaves them "not shown".

// ---------------------------------------------------------------------------------------------------------
// Headers (spec §4.3, §5)

export const financialId = z
  .string({ error: 'is required: the agent correspondent id issued by operations' })
  .regex(FINANCIAL_ID_PATTERN, 'must be two upper-case letters followed by four upper-case letters or digits')
  .meta({ description: 'Agent correspondent id, used for API management and auditing.', example: 'AB12CD' });

const uuidShaped = (description: string) =>
  z
    .string()
    .regex(UUID_SHAPED_PATTERN, 'must be UUID-shaped (8-4-4-4-12 word characters)')
    .meta({ description, example: '3f1c2a9e-6b7d-4e21-9a53-0c8d7e6f5a41' });

export const lookupHeaders = z.object({
  'x-fapi-financial-id': financialId,
  'x-correlation-id': uuidShaped(
    'Identifies the request for troubleshooting; echoed back, generated when absent.',
  ).optional(),
  'x-idempotency-key': uuidShaped(
    'Identifies the request for idempotency (UUID v4 suggested); echoed back.',
  ).optional(),
});
export type LookupHeaders = z.infer<typeof lookupHeaders>;

// ---------------------------------------------------------------------------------------------------------
// Domain catalogs

export const payoutType = z
  .enum(['N', 'C', 'O'])
  .meta({ description: 'N network-wide, C country-wide, O normal agent selection.' });
export type PayoutType = z.infer<typeof payoutType>;

export const deliveryModeCode = z
  .string()
  .regex(/^\d{2}$/)
  .meta({ description: 'Two-digit delivery mode code.', example: '04' });

// ---------------------------------------------------------------------------------------------------------
// Query parameters

export const receivingCountryParam = queryString(
  'ISO 3166-1 alpha-2 code of a served receiving country (GET /v1/receiving-countries).',
)
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case, e.g. "IN"')
  .meta({ example: 'BD' });

export const deliveryModeParam = digitsInteger(
  'Delivery mode (GET /v1/types?filter=delivery-modes); "4" and "04" are the same value.',
  1,
  MAX_INT32,
);

export const stateParam = queryString(
  'State code of the receiving country (GET /v1/states): the ISO 3166-2 subdivision code without the country prefix.',
)
  .regex(/^[A-Z0-9]{1,3}$/, 'must be a state code of 1 to 3 upper-case letters or digits (GET /v1/states)')
  .meta({ example: 'MH' });

export const pageNumberParam = digitsInteger('Page number, 1 to 2147483647; default 1.', 1, MAX_INT32).optional();
export const pageSizeParam = digitsInteger('Page size, 1 to 1000; default 50.', 1, 1000).optional();

export const receivingCountriesQuery = z.strictObject({});

/** The lists GET /v1/types gives (`filter`): a closed set, so the document lists it as an enum. */
const TYPE_FILTERS: readonly string[] = ['delivery-modes'];

export const deliveryModesQuery = z.strictObject({
  filter: queryString('Which type list to return; only "delivery-modes" exists.')
    .refine((value) => TYPE_FILTERS.includes(value), 'must be "delivery-modes"')
    .meta({ description: 'Which type list to return; only "delivery-modes" exists.', enum: [...TYPE_FILTERS] }),
});

export const statesQuery = z.strictObject({ receivingCountry: receivingCountryParam });

export const citiesQuery = z.strictObject({ receivingCountry: receivingCountryParam, state: stateParam });

export const agentsQuery = z.strictObject({
  receivingCountry: receivingCountryParam,
  state: stateParam.optional(),
  deliveryMode: deliveryModeParam,
  search: freeText(
    'Case-sensitive contains on head office name or agent name. With delivery mode 04: "[Bank Name], [Branch Name]".',
  ).optional(),
  pageNumber: pageNumberParam,
  pageSize: pageSizeParam,
});
export type AgentsQuery = z.output<typeof agentsQuery>;

export const payoutNetworksQuery = z.strictObject({
  receivingCountry: receivingCountryParam,
  deliveryMode: deliveryModeParam,
});
export type PayoutNetworksQuery = z.output<typeof payoutNetworksQuery>;

export const branchesQuery = z.strictObject({
  receivingCountry: receivingCountryParam,
  deliveryMode: deliveryModeParam,
  receivingAgentHeadOfficeCode: queryString(
    'Six-character receiving agent head office code (a mode-04 payout network).',
  )
    .regex(/^[A-Z0-9]{6}$/, 'must be a six-character head office code of upper-case letters or digits')
    .meta({ example: 'BRACBD' }),
  bankName: freeText('Case-insensitive contains on the bank name.').optional(),
  bankCode: queryString('Bank code or branch routing number (IFSC, Bangladesh routing number), matched exactly.')
    .max(20, 'must be at most 20 characters')
    .regex(/^[A-Za-z0-9]+$/, 'must be letters and digits only')
    .transform((value) => value.toUpperCase())
    .optional(),
  branchLocation: freeText('Case-insensitive contains on Address Line 1.').optional(),
  address: freeText('Case-insensitive contains on Address Line 2.').optional(),
  district: freeText(
    'Case-insensitive contains on District; only when the receiving country is Bangladesh.',
  ).optional(),
  pageNumber: pageNumberParam,
  pageSize: pageSizeParam,
});
export type BranchesQuery = z.output<typeof branchesQuery>;

// ---------------------------------------------------------------------------------------------------------
// Records

export const receivingCountry = z
  .object({
    code: z.string().meta({ example: 'BD' }),
    name: z.string().meta({ example: 'Bangladesh' }),
    currency: z.string().meta({ description: 'ISO 4217 currency the beneficiary is paid in.', example: 'BDT' }),
    deliveryModes: z.array(deliveryModeCode).meta({ description: 'Delivery modes offered for this country.' }),
  })
  .meta({ id: 'ReceivingCountry' });
export type ReceivingCountry = z.infer<typeof receivingCountry>;

export const deliveryMode = z
  .object({
    code: deliveryModeCode,
    value: z.number().int().meta({ example: 4 }),
    name: z.string().meta({ example: 'Account Transfer to Other Bank' }),
  })
  .meta({ id: 'DeliveryMode' });
export type DeliveryMode = z.infer<typeof deliveryMode>;

export const state = z
  .object({ code: z.string().meta({ example: 'MH' }), name: z.string().meta({ example: 'Maharashtra' }) })
  .meta({ id: 'State' });
export type State = z.infer<typeof state>;

export const city = z
  .object({ name: z.string().meta({ example: 'Pune' }), state: z.string().meta({ example: 'MH' }) })
  .meta({ id: 'City' });
export type City = z.infer<typeof city>;

export const agent = z
  .object({
    receivingAgentHeadOfficeCode: z.string().meta({ example: 'OXXOMX' }),
    headOfficeName: z.string(),
    agentCode: z.string().meta({
      description: 'Code of the paying location (for delivery mode 04: the routing number or bank-branch id).',
    }),
    agentName: z.string(),
    addressLine1: z.string().nullable(),
    addressLine2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable().meta({ description: 'State code (GET /v1/states).' }),
    stateName: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    receivingCountry: z.string(),
    payoutType,
    deliveryModes: z.array(deliveryModeCode),
    bankCode: z.string().nullable().meta({ description: 'Delivery mode 04 only: the bank of the branch.' }),
    bankName: z.string().nullable(),
    routingNumber: z.string().nullable(),
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof agent>;

export const payoutNetwork = z
  .object({
    receivingAgentHeadOfficeCode: z.string().meta({ example: 'BRACBD' }),
    headOfficeName: z.string(),
    networkName: z.string(),
    payoutType,
    payoutTypeDescription: z.string().meta({ example: PAYOUT_TYPES.N }),
    deliveryMode: deliveryModeCode,
    receivingCountry: z.string(),
  })
  .meta({ id: 'PayoutNetwork' });
export type PayoutNetwork = z.infer<typeof payoutNetwork>;

/** What a branch id looks like (server/domain/branch-id.ts): letters, digits and hyphens. */
export const BRANCH_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export const branchId = z.string().meta({
  description:
    'Stable id of the branch (extension): country + routing number where the branch has one (IN-SBIN0000300), else country + a hash of bank code, branch name and address line 1 (NG-…); kept across data imports. GET /v1/banks/branches/{branchId}.',
  example: 'IN-SBIN0000300',
});

export const bankBranch = z
  .object({
    receivingAgentHeadOfficeCode: z.string(),
    branchId,
    bankCode: z.string(),
    bankName: z.string(),
    routingNumber: z
      .string()
      .nullable()
      .meta({ description: 'IFSC (India), 9-digit routing number (Bangladesh); null for Nigeria.' }),
    branchName: z.string(),
    branchLocation: z.string().nullable().meta({ description: 'Address Line 1.' }),
    address: z.string().nullable().meta({ description: 'Address Line 2.' }),
    city: z.string().nullable(),
    district: z.string().nullable(),
    state: z.string().nullable().meta({ description: 'State code (GET /v1/states).' }),
    stateName: z.string().nullable(),
    receivingCountry: z.string(),
  })
  .meta({ id: 'BankBranch' });
export type BankBranch = z.infer<typeof bankBranch>;

// ---------------------------------------------------------------------------------------------------------
// Envelopes

export const pagination = z
  .object({
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    totalItems: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof pagination>;

export const list = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record) });
export const page = <T extends z.ZodType>(record: T) => z.object({ data: z.array(record), pagination });

export const recommendation = z
  .object({
    recommendedOperation: z.literal('/v1/banks/branches'),
    message: z.string(),
  })
  .meta({ id: 'Recommendation', description: 'Present on the agent list for delivery mode 04 (spec §4.1 rule 1).' });

export const receivingCountriesResponse = list(receivingCountry);
export const deliveryModesResponse = list(deliveryMode);
export const statesResponse = list(state);
export const citiesResponse = list(city);
export const payoutNetworksResponse = list(payoutNetwork);
export const agentsResponse = page(agent).extend({ recommendation: recommendation.optional() });
export const branchesResponse = page(bankBranch);

export type AgentsResponse = z.infer<typeof agentsResponse>;
export type BranchesResponse = z.infer<typeof branchesResponse>;
export type Page<T> = { data: T[]; pagination: Pagination };

// ---------------------------------------------------------------------------------------------------------
// Errors: RFC 9457 problem details, one shape for every error the service gives.

export const problemParameter = z.object({
  name: z.string().meta({ example: 'pageSize' }),
  in: z.enum(['query', 'header', 'path', 'body', 'cookie']),
  message: z.string().meta({ example: 'must be between 1 and 1000' }),
});
export type ProblemParameter = z.infer<typeof problemParameter>;

export const problem = z
  .object({
    type: z.string().meta({ example: 'urn:problem:invalid-request' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    correlationId: z.string(),
    errors: z.array(problemParameter),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof problem>;

// ---------------------------------------------------------------------------------------------------------
// Data status: which data set is being served (GET /v1/data-status).

export const dataSource = z
  .object({
    kind: z.string().meta({ example: 'branches' }),
    file: z.string().meta({ example: 'BD.csv' }),
    sha256: z.string().meta({ description: 'SHA-256 of the file as imported (empty for generated data).' }),
    rows: z.number().int(),
    countries: z
      .array(z.string())
      .optional()
      .meta({ description: 'Receiving countries whose rows the file supplies (branch files replace per country).' }),
    importedAt: z.string().meta({ description: 'ISO 8601 time of the import.' }),
  })
  .meta({ id: 'DataSource' });
export const dataStatusQuery = z.strictObject({});
export const dataStatusResponse = z.object({ data: z.array(dataSource) });
export type DataStatusResponse = z.infer<typeof dataStatusResponse>;
