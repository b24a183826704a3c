import { afterAll, beforeAll, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UUID_SHAPED_PATTERN } from '../../../../contract';
import type { TestApp } from '../../../../testing/test-app';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { useReceivingSelection } from '../../../lib/url-state';
import { startPortalApi } from '../../../testing/portal-api';
import { renderAt } from '../../../testing/render';
import { AgentSearch } from '../components/agent-search';

let api: TestApp;
beforeAll(async () => {
  api = await startPortalApi();
  saveCorrespondentId('AB12CD');
});
afterAll(async () => {
  saveCorrespondentId(null);
  await api.close();
});

function AgentsScreen() {
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  return <AgentSearch receivingCountry={receivingCountry} deliveryMode={deliveryMode} branchFinderHref="/branches" />;
}

it('lists the agents of the URL, then writes the debounced search to the URL', async () => {
  const { location } = renderAt('/agents?receivingCountry=MX&deliveryMode=01&pageSize=5', <AgentsScreen />);
  const table = await screen.findByRole('table', { name: 'Agents' });
  // The rows are drawn in a transition right after the table (results-view.tsx).
  await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(6)); // header + 5
  expect(screen.getByTestId('result-total').textContent).toMatch(/^[\d,]+ agents$/);

  await userEvent.type(screen.getByLabelText('Search head office or agent name'), 'OXXO');
  await waitFor(() => expect(location().searchParams.get('search')).toBe('OXXO'));
  await waitFor(() =>
    expect(within(screen.getByRole('table', { name: 'Agents' })).getAllByText('CADENA COMERCIAL OXXO')).toHaveLength(5),
  );
  // The filter change went back to page 1 and kept the page size.
  expect(location().searchParams.get('pageSize')).toBe('5');
});

it('shows the API 400 with its message and correlation id', async () => {
  renderAt('/agents?receivingCountry=MX&deliveryMode=01&state=ZZZ', <AgentsScreen />);
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('"ZZZ" is not a state of MX');
  expect(screen.getByTestId('correlation-id').textContent).toMatch(UUID_SHAPED_PATTERN);
});

it('points to the branch finder for delivery mode 04', async () => {
  renderAt('/agents?receivingCountry=IN&deliveryMode=04&pageSize=5', <AgentsScreen />);
  const pointer = await screen.findByTestId('branch-finder-pointer');
  // The finder opens under the head office of the answer (it does not reset it).
  await waitFor(() =>
    expect(within(pointer).getByRole('link', { name: 'Open branch finder' }).getAttribute('href')).toMatch(
      /^\/branches\?receivingAgentHeadOfficeCode=[A-Z0-9]{6}$/,
    ),
  );
  expect(screen.getByText('Case-sensitive. With mode 04 use the pattern [Bank Name], [Branch Name].')).toBeTruthy();
});
