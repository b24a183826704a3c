// The delivery modes of this project (data/seed/SOURCES.md). 04 is named by the spec itself (§1). In the
// contract: the server serves them and the portal shows their two-digit codes the same way.
export const DELIVERY_MODE_CATALOG: { value: number; name: string }[] = [
  { value: 1, name: 'Cash Pickup' },
  { value: 2, name: 'Home Delivery' },
  { value: 3, name: 'Account Deposit' },
  { value: 4, name: 'Account Transfer to Other Bank' },
  { value: 5, name: 'Mobile Wallet' },
];

/** The two-digit code of a delivery mode ("04"), as the API takes and answers it. */
export const deliveryModeCodeOf = (value: number) => String(value).padStart(2, '0');
