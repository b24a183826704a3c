import { z } from 'zod';
import { countries as isoCountries } from 'countries-list';
import { WITHOUT_CONTROL_CHARACTERS, payoutType, type BranchCodes } from '../../contract';
import { DELIVERY_MODE_CATALOG, deliveryModeCodeOf } from '../../contract/delivery-modes';
import { countryProfile } from '../../contract/countries';

// Row schemas of the import files: one zod object per kind over the file's columns (data/seed/SOURCES.md,
// README.md, "Keeping partner data current"). They check what a row says on its own — required fields, code formats,
// catalog values; what needs the served data (served countries, states, duplicates, references) is checked
// by the importer. Values arrive trimmed, as text; an empty cell is ''.

// No control characters (TAB, LF and C1 included): the contract's one rule, as the lookups apply it to searches.
// A built-in regex check rather than a refine: about 40% less validation time on a 300,000-row file.
const MAX_TEXT = 300;

const text = () =>
  z
    .string()
    .max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`)
    .regex(WITHOUT_CONTROL_CHARACTERS, 'must not contain control characters');
const required = () => text().min(1, 'is required');

export const isIsoCountry = (code: string) => Object.hasOwn(isoCountries, code);
const countryCode = () =>
  z
    .string()
    .min(1, 'is required')
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code in upper case, e.g. "IN"')
    .refine(isIsoCountry, 'is not an ISO 3166-1 alpha-2 country code');

/** Six-character receiving agent head office code (spec §2, §4.3). */
export const HEAD_OFFICE_CODE = /^[A-Z0-9]{6}$/;
const headOfficeCode = () =>
  z.string().min(1, 'is required').regex(HEAD_OFFICE_CODE, 'must be six upper-case letters or digits');

/** Bank codes: the country profile's format (countries.ts); others: 1–11 letters or digits. */
const ANY_BANK_CODE = { pattern: /^[A-Z0-9]{1,11}$/, description: '1 to 11 upper-case letters or digits' };
export const bankCodeFormat = (country: string) => {
  const codes = countryProfile(country).codes;
  return codes ? { pattern: codes.bank, description: codes.importBankDescription } : ANY_BANK_CODE;
};

/** Why a bank code does not fit its country's format, or null. */
export function bankCodeProblem(country: string, bankCode: string): string | null {
  const format = bankCodeFormat(country);
  return format.pattern.test(bankCode) ? null : `must be ${format.description} (${country}), got "${bankCode}"`;
}

/** The routing number rules of the country's profile (countries.ts); null when the routing number is fine. */
function routingNumberProblem(row: BranchCodes & { country: string }): string | null {
  const check = countryProfile(row.country).codes?.routingNumberProblem;
  if (check) return check(row);
  if (row.routing_number && !/^[A-Z0-9]{1,20}$/.test(row.routing_number))
    return 'must be 1 to 20 upper-case letters or digits';
  return null;
}

/**
 * The row checks that span cells run even when a cell's own check failed (zod skips them by default), so a row's
 * report lists every fault; the importer keeps one fault per cell (validate.ts). The cells are text here.
 */
const EVERY_FAULT = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    Object.values(payload.value).every((v) => typeof v === 'string'),
};

export const branchRecord = z
  .object({
    country: countryCode(),
    bank_code: z.string().min(1, 'is required'),
    bank_name: required(),
    routing_number: text(),
    branch_name: required(),
    address_line1: text(),
    address_line2: text(),
    city: text(),
    district: text(),
    state: text(),
  })
  .superRefine((row, ctx) => {
    if (!/^[A-Z]{2}$/.test(row.country)) return; // reported on country already
    const bankCode = bankCodeProblem(row.country, row.bank_code);
    if (bankCode && row.bank_code) ctx.addIssue({ code: 'custom', path: ['bank_code'], message: bankCode });
    const routing = routingNumberProblem(row);
    if (routing) ctx.addIssue({ code: 'custom', path: ['routing_number'], message: routing });
  }, EVERY_FAULT);

const deliveryModeCodes = new Map(DELIVERY_MODE_CATALOG.map((m) => [deliveryModeCodeOf(m.value), m.value]));
const catalogText = [...deliveryModeCodes.keys()].join(', ');

export const partnerRecord = z
  .object({
    country: countryCode(),
    head_office_code: headOfficeCode(),
    head_office_name: required(),
    network_name: required(),
    payout_type: z
      .string()
      .min(1, 'is required')
      .refine(
        (value) => payoutType.safeParse(value).success,
        'must be N (anywhere within the network), C (anywhere within the country) or O (others)',
      ),
    delivery_modes: z.string().min(1, 'is required: space-separated delivery mode codes, e.g. "01 03"'),
    routes_to_banks: text(),
    demo_locations: z.string().regex(/^\d{0,7}$/, 'must be a whole number of agent locations (digits only)'),
  })
  .superRefine((row, ctx) => {
    if (!row.delivery_modes) return; // reported on delivery_modes already
    const codes = row.delivery_modes.split(/\s+/).filter(Boolean);
    const unknown = codes.filter((code) => !deliveryModeCodes.has(code));
    if (unknown.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['delivery_modes'],
        message: `${unknown.map((c) => `"${c}"`).join(', ')} not in the delivery mode catalog (${catalogText})`,
      });
      return;
    }
    if (new Set(codes).size !== codes.length) {
      ctx.addIssue({ code: 'custom', path: ['delivery_modes'], message: 'lists a delivery mode twice' });
    }
    const modes = codes.map((code) => deliveryModeCodes.get(code)!);
    // A country may take only some modes (India: account transfers only as 04, spec §1).
    const only = countryProfile(row.country).deliveryModes;
    if (only && modes.some((m) => !only.only.includes(m))) {
      ctx.addIssue({ code: 'custom', path: ['delivery_modes'], message: only.message });
    }
    const routes = row.routes_to_banks;
    const offersBankTransfer = modes.includes(4);
    if (offersBankTransfer && !routes) {
      ctx.addIssue({
        code: 'custom',
        path: ['routes_to_banks'],
        message: 'is required with delivery mode 04: "*" or the bank codes this head office pays into',
      });
    } else if (!offersBankTransfer && routes) {
      ctx.addIssue({
        code: 'custom',
        path: ['routes_to_banks'],
        message: 'applies only to delivery mode 04, which this head office does not offer',
      });
    } else if (routes && routes !== '*' && /^[A-Z]{2}$/.test(row.country)) {
      const bad = routes.split(/\s+/).filter((code) => bankCodeProblem(row.country, code));
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['routes_to_banks'],
          message: `${bad.map((c) => `"${c}"`).join(', ')}: each must be ${bankCodeFormat(row.country).description}, or the whole value "*"`,
        });
      }
    }
  }, EVERY_FAULT);

/** Agent codes: the generated ones are the head office code and five digits; any 1–20 letters or digits. */
export const AGENT_CODE = /^[A-Z0-9]{1,20}$/;

export const agentRecord = z.object({
  agent_code: z.string().min(1, 'is required').regex(AGENT_CODE, 'must be 1 to 20 upper-case letters or digits'),
  head_office_code: headOfficeCode(),
  country: countryCode(),
  agent_name: required(),
  address_line1: required(),
  address_line2: text(),
  city: required(),
  state: z.string().min(1, 'is required: a state code (GET /v1/states) or name'),
  phone_number: text(),
});

export type BranchFileRecord = z.infer<typeof branchRecord>;
export type PartnerFileRecord = z.infer<typeof partnerRecord>;
export type AgentFileRecord = z.infer<typeof agentRecord>;
