// One profile per receiving country: everything that differs from one country to the next, in one place. The
// API and the portal take the bank and branch code formats, the district filter and the place aliases from here;
// the server also its import checks (routing numbers, delivery modes), the spellings of states in published
// files, and the agent generator the locale (docs/architecture.md, "Add a country's branches"). A country
// without a profile, or without a part of one, gets the defaults. Plain data and pure functions only: the portal
// bundles this file.

export interface CountryProfile {
  /** Bank codes and branch routing numbers: the `bankCode` parameter, the code box, the import's row check. */
  codes?: {
    bank: RegExp;
    /** As the API and the portal say it: "a bank code of 3 digits". */
    bankDescription: string;
    /** As the import report says it: "the three-digit Bangladesh Bank code". */
    importBankDescription: string;
    branch?: RegExp;
    branchDescription?: string;
    /** A branch row's routing number problem (the import), or null. Default: optional, 1–20 letters or digits. */
    routingNumberProblem?: (row: BranchCodes) => string | null;
    /**
     * Routing numbers of generated branches (scripts/gen.ts), valid for the row check: a prefix for the branch's
     * bank and district, then `serial(n)` for the n-th generated branch of that prefix. Default: none ('').
     */
    generatedRouting?: { prefix: (bankCode: string, district: string) => string; serial: (n: number) => string };
  };
  /**
   * What the country calls a branch's routing number, in each interface language (the results' column, the
   * branch detail). Default: "Routing number".
   */
  branchCodeName?: { en: string; es: string };
  /** The country's payment rails a branch may take (the branch detail and slip list them). Default: none. */
  rails?: readonly PaymentRail[];
  /** The branch search's `district` filter applies (spec §4.3: Bangladesh only). */
  districtFilter?: boolean;
  /** Places known under two names; the first is the one the served data uses (place-aliases.ts). */
  placeAliases?: readonly (readonly string[])[];
  /** Published spellings of states (normalised by `nameKey`) → the state catalog's (country-state-city). */
  stateSpellings?: Readonly<Record<string, string>>;
  /** Where the catalog's state code differs from ISO 3166-2 or exceeds the spec's 2–3 characters. */
  stateCodeOverrides?: Readonly<Record<string, string>>;
  /** The branch files give no city: a branch's city is the one of its state its address names
   *  (server/domain/address-city.ts). */
  citiesFromAddress?: boolean;
  /** Which of the catalog's subdivisions are served as states (default: all). */
  isState?: (code: string) => boolean;
  /** Delivery modes a head office of the country may offer, and why (the import's partner check). */
  deliveryModes?: { only: readonly number[]; message: string };
  /** Faker locales of the generated agents (development only), most specific first. Default: en. */
  fakerLocales?: readonly string[];
}

/** India's payment rails, as the branch detail holds them. */
export type PaymentRail = 'neft' | 'rtgs' | 'imps' | 'upi';

/** The cells of a branch row that its routing number check reads. */
export interface BranchCodes {
  bank_code: string;
  routing_number: string;
  district: string;
}

const DESIGNATIONS = /\b(state|division|department|province|district|region|zone)\b/g;

/** A spelling-insensitive key for a place name: no accents, case, designations or punctuation. */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(DESIGNATIONS, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * Bangladesh Bank routing numbers are bank(3) district(2) branch(3) check digit(1) (data/seed/SOURCES.md). The
 * district codes (digits 4–5) are derived from the shipped routing numbers of data/seed/bank-branches/BD.csv:
 * every one of its 10,026 routing numbers maps its two digits to exactly one district, 65 codes for the 64
 * districts (Dhaka has two, 26 and 27).
 */
export const BD_DISTRICT_CODES: Readonly<Record<string, string>> = {
  '01': 'Bagerhat',
  '03': 'Bandarban',
  '04': 'Barguna',
  '06': 'Barishal',
  '09': 'Bhola',
  '10': 'Bogura',
  '12': 'Brahmanbaria',
  '13': 'Chandpur',
  '15': 'Chattogram',
  '18': 'Chuadanga',
  '19': 'Cumilla',
  '22': "Cox's Bazar",
  '26': 'Dhaka',
  '27': 'Dhaka',
  '28': 'Dinajpur',
  '29': 'Faridpur',
  '30': 'Feni',
  '32': 'Gaibandha',
  '33': 'Gazipur',
  '35': 'Gopalganj',
  '36': 'Habiganj',
  '38': 'Joypurhat',
  '39': 'Jamalpur',
  '41': 'Jashore',
  '42': 'Jhalokati',
  '44': 'Jhenaidah',
  '46': 'Khagrachhari',
  '47': 'Khulna',
  '48': 'Kishoreganj',
  '49': 'Kurigram',
  '50': 'Kushtia',
  '51': 'Lakshmipur',
  '52': 'Lalmonirhat',
  '54': 'Madaripur',
  '55': 'Magura',
  '56': 'Manikganj',
  '57': 'Meherpur',
  '58': 'Moulvibazar',
  '59': 'Munshiganj',
  '61': 'Mymensingh',
  '64': 'Naogaon',
  '65': 'Narail',
  '67': 'Narayanganj',
  '68': 'Narsingdi',
  '69': 'Natore',
  '70': 'Chapai Nawabganj',
  '72': 'Netrokona',
  '73': 'Nilphamari',
  '75': 'Noakhali',
  '76': 'Pabna',
  '77': 'Panchagarh',
  '78': 'Patuakhali',
  '79': 'Pirojpur',
  '81': 'Rajshahi',
  '82': 'Rajbari',
  '84': 'Rangamati',
  '85': 'Rangpur',
  '86': 'Shariatpur',
  '87': 'Satkhira',
  '88': 'Sirajganj',
  '89': 'Sherpur',
  '90': 'Sunamganj',
  '91': 'Sylhet',
  '93': 'Tangail',
  '94': 'Thakurgaon',
};

const BD_STATE_SPELLINGS = {
  chattogram: 'chittagong',
  barishal: 'barisal',
  bogura: 'bogra',
  cumilla: 'comilla',
  jashore: 'jessore',
};
// Few distinct district names, many rows: normalise each name once.
const bdDistrictKeys = new Map<string, string>();
const bdDistrictKey = (name: string) => {
  let key = bdDistrictKeys.get(name);
  if (key === undefined) {
    key = nameKey(name);
    bdDistrictKeys.set(name, (key = BD_STATE_SPELLINGS[key as keyof typeof BD_STATE_SPELLINGS] ?? key));
  }
  return key;
};

/** The district code of a district as spelled in a branch file ('' when unknown). */
const bdDistrictCode = (district: string) => {
  const key = bdDistrictKey(district);
  return Object.keys(BD_DISTRICT_CODES).find((code) => bdDistrictKey(BD_DISTRICT_CODES[code]) === key) ?? '';
};

/** India: IFSC, the four-letter bank code, a zero, six letters or digits. */
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
/** Bangladesh: bank(3) district(2) branch(3) check digit(1). */
const BD_ROUTING_NUMBER = /^\d{9}$/;
const SPANISH = ['es'];
const INDIAN_ENGLISH = ['en_IN'];

/**
 * The profiles, by ISO 3166-1 alpha-2 code. Order matters where codes are listed (the code box tries formats in
 * this order): India, Bangladesh, Nigeria first.
 */
export const COUNTRY_PROFILES: Readonly<Record<string, CountryProfile>> = {
  IN: {
    branchCodeName: { en: 'IFSC', es: 'IFSC' },
    rails: ['neft', 'rtgs', 'imps', 'upi'],
    codes: {
      bank: /^[A-Z]{4}$/,
      bankDescription: 'a bank code of 4 letters',
      importBankDescription: 'the four-letter IFSC bank prefix',
      branch: IFSC,
      branchDescription: 'an IFSC (4 letters, 0, then 6 letters or digits)',
      routingNumberProblem({ bank_code: bankCode, routing_number: routing }) {
        if (!routing) return 'is required for India: the branch IFSC';
        if (!IFSC.test(routing))
          return 'must be an IFSC: four letters, 0, six letters or digits (^[A-Z]{4}0[A-Z0-9]{6}$)';
        if (routing.slice(0, 4) !== bankCode) return `IFSC ${routing} does not start with the bank code ${bankCode}`;
        return null;
      },
      generatedRouting: {
        prefix: (bankCode) => `${bankCode}0`,
        serial: (n) => n.toString(36).toUpperCase().padStart(6, '0'),
      },
    },
    stateSpellings: {
      andamanandnicobarisland: 'andamanandnicobarislands',
      dadraandnagarhaveli: 'dadraandnagarhavelianddamananddiu',
      damananddiu: 'dadraandnagarhavelianddamananddiu',
      orissa: 'odisha',
      pondicherry: 'puducherry',
    },
    // India takes account transfers only as delivery mode 04 (spec §1).
    deliveryModes: { only: [4], message: 'India takes account transfers only as delivery mode 04' },
    fakerLocales: INDIAN_ENGLISH,
  },
  BD: {
    branchCodeName: { en: 'Routing number', es: 'Número de ruta' },
    codes: {
      bank: /^\d{3}$/,
      bankDescription: 'a bank code of 3 digits',
      importBankDescription: 'the three-digit Bangladesh Bank code',
      branch: BD_ROUTING_NUMBER,
      branchDescription: 'a routing number of 9 digits',
      routingNumberProblem({ bank_code: bankCode, routing_number: routing, district: districtColumn }) {
        if (!routing) return 'is required for Bangladesh: the nine-digit routing number';
        if (!BD_ROUTING_NUMBER.test(routing)) return 'must be a nine-digit Bangladesh Bank routing number';
        if (routing.slice(0, 3) !== bankCode)
          return `routing number ${routing} does not start with the bank code ${bankCode}`;
        const districtCode = routing.slice(3, 5);
        const district = BD_DISTRICT_CODES[districtCode];
        if (!district) return `digits 4–5 (${districtCode}) are not a known Bangladesh district code`;
        if (districtColumn && bdDistrictKey(districtColumn) !== bdDistrictKey(district)) {
          return `district code ${districtCode} is ${district}, but the district column says ${districtColumn}`;
        }
        return null;
      },
      // The district's code (its first, for Dhaka), then branch(3) and check digit(1) as four digits.
      generatedRouting: {
        prefix: (bankCode, district) => `${bankCode}${bdDistrictCode(district)}`,
        serial: (n) => String(n).padStart(4, '0'),
      },
    },
    districtFilter: true,
    // The 2018 official spellings and the older ones still found in branch names, the state catalog and
    // tellers' habits.
    placeAliases: [
      ['Chattogram', 'Chittagong'],
      ['Barishal', 'Barisal'],
      ['Jashore', 'Jessore'],
      ['Cumilla', 'Comilla'],
      ['Bogura', 'Bogra'],
      ['Dhaka', 'Dacca'],
    ],
    stateSpellings: BD_STATE_SPELLINGS,
    // A branch's `state` is its division; districts are the separate `district` filter (spec §4.3). So only the
    // eight divisions (letter codes) are states; the catalog's cities, filed under districts, are lifted to
    // their division (server/domain/places.ts).
    isState: (code) => /^[A-Z]$/.test(code),
    fakerLocales: INDIAN_ENGLISH,
  },
  NG: {
    codes: {
      bank: /^\d{3}$/,
      bankDescription: 'a CBN bank code of 3 digits',
      importBankDescription: 'the three-digit CBN bank code',
    },
    stateSpellings: {
      fctabuja: 'abujafederalcapitalterritory',
      abuja: 'abujafederalcapitalterritory',
      lagosstate: 'lagos',
      kastina: 'katsina',
      nassarawa: 'nasarawa',
      nazarawa: 'nasarawa',
      nassa: 'nasarawa',
      crossrivers: 'crossriver',
      pleateau: 'plateau',
      // Cities given where the state belongs.
      victoriaisland: 'lagos',
      maiduguri: 'borno',
      yola: 'adamawa',
      ibadan: 'oyo',
      ilesha: 'osun',
      aba: 'abia',
    },
    citiesFromAddress: true,
    fakerLocales: ['en_NG'],
  },
  // MX-CMX is Mexico City in ISO 3166-2; the catalog says CDMX.
  MX: { stateCodeOverrides: { CDMX: 'CMX' }, fakerLocales: ['es_MX', 'es'] },
  CO: { fakerLocales: SPANISH },
  DO: { fakerLocales: SPANISH },
  GT: { fakerLocales: SPANISH },
  HN: { fakerLocales: SPANISH },
  SV: { fakerLocales: SPANISH },
  KE: { fakerLocales: ['en'] },
  NP: { fakerLocales: INDIAN_ENGLISH },
  PH: { fakerLocales: ['en'] },
  PK: { fakerLocales: INDIAN_ENGLISH },
  VN: { fakerLocales: ['vi'] },
};

/** What the country calls a branch's routing number, in the language (`en` or `es`). */
export const branchCodeName = (country: string, language: string): string => {
  const names = COUNTRY_PROFILES[country]?.branchCodeName ?? { en: 'Routing number', es: 'Número de ruta' };
  return language.startsWith('es') ? names.es : names.en;
};

/** The payment rails that apply to the country (none for most). */
export const paymentRails = (country: string): readonly PaymentRail[] => COUNTRY_PROFILES[country]?.rails ?? [];

/** The country's profile; an empty one (every default) for a country without. */
export const countryProfile = (country: string): CountryProfile => COUNTRY_PROFILES[country] ?? {};

/** `nameKey` with the country's published spellings mapped to the state catalog's. */
export function placeKey(country: string, name: string): string {
  const key = nameKey(name);
  return COUNTRY_PROFILES[country]?.stateSpellings?.[key] ?? key;
}

/** The countries whose branch search takes the `district` filter. */
export const DISTRICT_COUNTRIES = Object.keys(COUNTRY_PROFILES).filter((c) => COUNTRY_PROFILES[c].districtFilter);
