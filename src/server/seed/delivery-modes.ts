import type { DeliveryModeRow } from './data-set';

// The delivery modes of this project (data/seed/SOURCES.md). 04 is named by the spec itself (§1).
export const DELIVERY_MODE_CATALOG: DeliveryModeRow[] = [
  { value: 1, name: 'Cash Pickup' },
  { value: 2, name: 'Home Delivery' },
  { value: 3, name: 'Account Deposit' },
  { value: 4, name: 'Account Transfer to Other Bank' },
  { value: 5, name: 'Mobile Wallet' },
];

export const deliveryModeCodeOf = (value: number) => String(value).padStart(2, '0');
