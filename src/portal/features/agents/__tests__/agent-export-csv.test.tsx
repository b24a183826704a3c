import { afterEach, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Agent } from '../../../../contract';
import { fromCsvCell } from '../../../../contract/csv-cell';
import { csvRows } from '../../../../testing/csv-rows';
import { ExportCsvButton } from '../../../components/ui/export-csv-button';
import { agentImportColumns } from '../components/agent-search';
import { renderAt } from '../../../testing/render';

// The agents screen's CSV export, as a teller downloads it: no cell a spreadsheet would run as a formula (a signed sum
// such as +1+1 or -1+2, a phone number with its sign), codes as they are, and every cell read back by the
// importer's unescaping as the value on screen.

const AGENT: Agent = {
  receivingAgentHeadOfficeCode: 'OXXOMX',
  headOfficeName: 'CADENA COMERCIAL OXXO',
  agentCode: '010150166',
  agentName: '-1+2',
  addressLine1: '+1+1',
  addressLine2: '=HYPERLINK("http://evil.example","x")',
  city: '@SUM(A1)',
  state: 'JAL',
  stateName: 'Jalisco',
  phoneNumber: '+52 33 1234 5678',
  receivingCountry: 'MX',
  payoutType: 'O',
  deliveryModes: ['01'],
  bankCode: null,
  bankName: null,
  routingNumber: null,
};

afterEach(() => vi.restoreAllMocks());

it('the downloaded CSV escapes every formula-looking cell, signed numbers included, and keeps codes as they are', async () => {
  // The download is a Blob handed to URL.createObjectURL: watched, not replaced.
  const createObjectURL = vi.spyOn(URL, 'createObjectURL');
  renderAt(
    '/agents',
    <ExportCsvButton
      source={{ total: 1, rows: [AGENT] }}
      columns={agentImportColumns}
      importColumns={agentImportColumns}
      screen="agents"
      filters={{}}
    />,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
  const text = (await (createObjectURL.mock.calls[0][0] as Blob).text()).replace(/^\uFEFF/, '');
  const [cells] = csvRows(text);
  expect(Object.keys(cells)).toEqual(agentImportColumns.map((c) => c.header));
  expect(cells).toMatchObject({
    agent_code: '010150166',
    agent_name: "'-1+2",
    address_line1: "'+1+1",
    address_line2: '\'=HYPERLINK("http://evil.example","x")',
    city: "'@SUM(A1)",
    phone_number: "'+52 33 1234 5678",
  });
  for (const cell of Object.values(cells)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  // The importer's unescaping (src/server/importer/sheet.ts reads every CSV cell through it) gives back the values
  // on screen.
  expect(Object.values(cells).map(fromCsvCell)).toEqual(agentImportColumns.map((c) => String(c.value(AGENT) ?? '')));
});
