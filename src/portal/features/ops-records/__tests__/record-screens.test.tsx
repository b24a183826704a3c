import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { editsBody } from '../../../../contract/ops-edits';
import type { TestApp } from '../../../../testing/test-app';
import { OPS_PASSWORD, createOpsAccount } from '../../../../testing/ops';
import { renderAt } from '../../../testing/render';
import { startPortalApi } from '../../../testing/portal-api';
import OpsArea from '../../../app/routes/ops/ops-area';

// The desk's records screens against the real API: the search (its state in the URL) opens a record's page with
// every field as served; a maker's forms check a record's fields before anything is sent, and send only what
// changed, as the contract's edits body; a checker sees no such action.

let api: TestApp;
beforeAll(async () => {
  api = await startPortalApi();
  await createOpsAccount(api.app, 'records-maker', ['maker']);
  await createOpsAccount(api.app, 'records-checker', ['checker']);
});
afterAll(async () => api.close());

/** Every POST to /v1/ops/changes the screens send (the real fetch still sends them). */
const posted: unknown[] = [];
const realFetch = window.fetch.bind(window);
const spy = vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (init?.method === 'POST' && new URL(url, window.location.href).pathname === '/v1/ops/changes')
    posted.push(JSON.parse(String(init.body)));
  return realFetch(input, init);
});
afterEach(() => {
  posted.length = 0;
  localStorage.clear();
});
afterAll(() => spy.mockRestore());

async function signInAs(name: string) {
  const user = await screen.findByLabelText('User name');
  await waitFor(() => expect(document.activeElement).toBe(user));
  await userEvent.keyboard(name);
  await userEvent.type(screen.getByLabelText('Password'), OPS_PASSWORD);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect((await screen.findByTestId('ops-user')).textContent).toContain(name);
}

const field = (name: string) => document.querySelector<HTMLInputElement>(`input[data-field="${name}"]`)!;

it('searches by IFSC (the URL holds it), opens the branch; a change checked first, then only the changed field sent', async () => {
  const view = renderAt('/records', <OpsArea />);
  await signInAs('records-maker');
  await userEvent.type(await screen.findByRole('textbox', { name: 'Code, name, bank or city' }), 'abhy0065002');
  const table = await screen.findByRole('table', { name: 'Records found' });
  await waitFor(() => expect(within(table).getAllByTestId('record-row')).toHaveLength(1));
  expect(view.location().search).toBe('?q=abhy0065002');
  expect(within(table).getByTestId('record-row').textContent).toContain('ABHY0065002');

  await userEvent.click(within(table).getByRole('link', { name: 'ABHYUDAYA NAGAR' }));
  expect(view.location().pathname).toBe('/records/branches/IN~ABHY0065002');
  const fields = await screen.findByTestId('record-fields');
  expect(within(fields).getByText('IFSC')).toBeTruthy();
  expect(fields.querySelector('[data-field="addressLine2"]')!.textContent).toBe('MUMBAI, MAHARASHTRA');

  await userEvent.click(screen.getByRole('button', { name: 'Change this record' }));
  // An IFSC of another bank is refused here, with the importer's rule: nothing is sent.
  await userEvent.clear(field('routingNumber'));
  await userEvent.type(field('routingNumber'), 'SBIN0065002');
  await userEvent.click(screen.getByRole('button', { name: 'Stage the change' }));
  expect(await screen.findByText(/does not start with the bank code ABHY/)).toBeTruthy();
  await userEvent.clear(field('branchName'));
  await userEvent.click(screen.getByRole('button', { name: 'Stage the change' }));
  expect(await screen.findByText('is required')).toBeTruthy();
  expect(posted).toEqual([]);

  // Put back, nothing changed: said, not sent.
  await userEvent.clear(field('routingNumber'));
  await userEvent.type(field('routingNumber'), 'ABHY0065002');
  await userEvent.type(field('branchName'), 'ABHYUDAYA NAGAR');
  await userEvent.click(screen.getByRole('button', { name: 'Stage the change' }));
  expect(await screen.findByText('Nothing was changed: no change to stage.')).toBeTruthy();
  expect(posted).toEqual([]);

  // One field changed, one emptied: those two are sent, as the contract's body.
  await userEvent.clear(field('addressLine2'));
  await userEvent.type(field('city'), ' WEST');
  await userEvent.click(screen.getByRole('button', { name: 'Stage the change' }));
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(editsBody.parse(posted[0])).toEqual({
    kind: 'branches',
    edits: [{ op: 'change', key: 'IN~ABHY0065002', fields: { addressLine2: null, city: 'MUMBAI WEST' } }],
  });
  // Whatever the server answers, the screen shows it: the change's page, or the problem with the form.
  await waitFor(() =>
    expect(view.location().pathname.startsWith('/changes/') || screen.queryByTestId('problem') !== null).toBe(true),
  );
});

it('adds a branch: required fields and the country rules checked before sending; a remove is asked twice', async () => {
  const view = renderAt('/records?country=IN&q=ABHY0065002', <OpsArea />);
  await signInAs('records-maker');
  await userEvent.click(await screen.findByRole('button', { name: 'Add a branch' }));
  await userEvent.click(screen.getByRole('button', { name: 'Stage the new branch' }));
  expect((await screen.findAllByText('is required')).length).toBe(4);
  await userEvent.type(field('country'), 'IN');
  await userEvent.type(field('bankCode'), 'ABH');
  await userEvent.type(field('bankName'), 'ABHYUDAYA COOPERATIVE BANK LIMITED');
  await userEvent.type(field('branchName'), 'DESK TEST');
  await userEvent.click(screen.getByRole('button', { name: 'Stage the new branch' }));
  expect(await screen.findByText(/four-letter IFSC bank prefix/)).toBeTruthy();
  expect(await screen.findByText(/is required for India/)).toBeTruthy();
  expect(posted).toEqual([]);
  await userEvent.type(field('bankCode'), 'Y');
  await userEvent.type(field('routingNumber'), 'ABHY0DESK01');
  await userEvent.click(screen.getByRole('button', { name: 'Stage the new branch' }));
  await waitFor(() => expect(posted).toHaveLength(1));
  expect(editsBody.parse(posted[0])).toEqual({
    kind: 'branches',
    edits: [
      {
        op: 'add',
        fields: {
          country: 'IN',
          bankCode: 'ABHY',
          bankName: 'ABHYUDAYA COOPERATIVE BANK LIMITED',
          routingNumber: 'ABHY0DESK01',
          branchName: 'DESK TEST',
        },
      },
    ],
  });
  await waitFor(() =>
    expect(view.location().pathname.startsWith('/changes/') || screen.queryByTestId('problem') !== null).toBe(true),
  );

  // A removal: asked, then sent as the record's key alone.
  view.unmount();
  posted.length = 0;
  renderAt('/records/agents/ACCSNG00001', <OpsArea />);
  expect((await screen.findByTestId('record-name')).textContent).toBe('Access Bank Inisa');
  await userEvent.click(screen.getByRole('button', { name: 'Remove this record' }));
  expect(posted).toEqual([]);
  await userEvent.click(screen.getByRole('button', { name: 'Yes, stage the removal' }));
  await waitFor(() => expect(posted).toEqual([{ kind: 'agents', edits: [{ op: 'remove', key: 'ACCSNG00001' }] }]));
});

it('a checker reads a record and its history but has no maker action', async () => {
  renderAt('/records/branches/BD~020150130', <OpsArea />);
  await signInAs('records-checker');
  expect((await screen.findByTestId('record-name')).textContent).toBe('AGRABAD');
  expect(screen.getByTestId('history-none')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Change this record' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Remove this record' })).toBeNull();
  await userEvent.click(screen.getByRole('tab', { name: 'Records' }));
  expect(await screen.findByRole('search', { name: 'Search the records' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Add a branch' })).toBeNull();
});
