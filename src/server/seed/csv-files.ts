import type { BranchRow, DataSetSource, HeadOfficeRow } from '../domain/data-set';
import type { PayoutType } from '../../contract';

// The reference files of data/seed as records (formats in data/seed/SOURCES.md), and their rows.

export interface CsvFile<T> {
  records: T[];
  source: DataSetSource;
}

export interface PartnerRecord {
  country: string;
  head_office_code: string;
  head_office_name: string;
  network_name: string;
  payout_type: string;
  delivery_modes: string;
  routes_to_banks: string;
  demo_locations: string;
}

export interface BranchRecord {
  country: string;
  bank_code: string;
  bank_name: string;
  routing_number: string;
  branch_name: string;
  address_line1: string;
  address_line2: string;
  city: string;
  district: string;
  state: string;
}

const orNull = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

export function toBranchRow(
  record: BranchRecord,
  resolveState: (country: string, state: string) => string | null,
): BranchRow {
  return {
    country: record.country,
    bankCode: record.bank_code,
    bankName: record.bank_name,
    routingNumber: orNull(record.routing_number),
    branchName: record.branch_name,
    addressLine1: orNull(record.address_line1),
    addressLine2: orNull(record.address_line2),
    city: orNull(record.city),
    district: orNull(record.district),
    state: resolveState(record.country, record.state),
    publishedState: orNull(record.state),
  };
}

/** `routes_to_banks`: `*` means every bank of that country in the branch files. */
export function toHeadOfficeRow(record: PartnerRecord, banksOfCountry: (country: string) => string[]): HeadOfficeRow {
  const routes = record.routes_to_banks.trim();
  return {
    code: record.head_office_code,
    country: record.country,
    name: record.head_office_name,
    networkName: record.network_name,
    payoutType: record.payout_type as PayoutType,
    deliveryModes: record.delivery_modes.split(/\s+/).filter(Boolean).map(Number),
    bankCodes: routes === '*' ? banksOfCountry(record.country) : routes.split(/\s+/).filter(Boolean),
    demoLocations: Number(record.demo_locations || 0),
  };
}
