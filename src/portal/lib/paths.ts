/** The screens' paths; the screen is part of the URL state like every filter. In lib/ so that the links
 * features build to other screens (lib/links.ts) need no import of another feature or of app/. */
export const paths = {
  agents: '/agents',
  payoutNetworks: '/payout-networks',
  branches: '/branches',
  code: '/code',
  /** The operations desk's area (its screens are nested: /ops/inbox, /ops/changes/:id…). */
  ops: '/ops',
} as const;
