/** The screens' paths; the screen is part of the URL state like every filter. */
export const paths = {
  agents: '/agents',
  payoutNetworks: '/payout-networks',
  branches: '/branches',
} as const;
