import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TestApp } from '../../../../../testing/test-app';
import { OPS_PASSWORD, createOpsAccount } from '../../../../../testing/ops';
import { renderAt } from '../../../../testing/render';
import { startPortalApi } from '../../../../testing/portal-api';
import OpsArea from '../ops-area';

// The desk's frame against the real API (session cookie, CSRF token, roles): sign-in, the screens each role
// sees, account management by an admin, sign-out.

let api: TestApp;
beforeAll(async () => {
  api = await startPortalApi();
  await createOpsAccount(api.app, 'desk-maker', ['maker']);
  await createOpsAccount(api.app, 'desk-admin', ['admin']);
});
afterAll(async () => api.close());

async function signInAs(name: string, password = OPS_PASSWORD) {
  const user = await screen.findByLabelText('User name');
  await waitFor(() => expect(document.activeElement).toBe(user));
  // Typed at once into the focused field, without a click.
  await userEvent.keyboard(name);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

it('refuses a wrong password, then signs a maker in: maker screens, no accounts; sign-out', async () => {
  const view = renderAt('/inbox', <OpsArea />);
  await signInAs('desk-maker', 'not the password at all');
  expect((await screen.findByRole('alert')).textContent).toContain('The user name or the password is not right');

  await userEvent.clear(screen.getByLabelText('Password'));
  await userEvent.type(screen.getByLabelText('Password'), OPS_PASSWORD);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect((await screen.findByTestId('ops-user')).textContent).toBe('desk-maker (maker)');
  const nav = screen.getByRole('tablist', { name: 'Desk screens' });
  expect(
    within(nav)
      .getAllByRole('tab')
      .map((tab) => tab.textContent),
  ).toEqual(['Inbox', 'My changes', 'Upload', 'Records', 'Reports', 'History', 'Data quality', 'Audit']);
  // The screens behind the sign-in are a chunk of their own, fetched once signed in.
  expect(await screen.findByRole('heading', { level: 1, name: 'Inbox' })).toBeTruthy();

  // Sign-out ends the session on the server: the desk asks for a sign-in again, and so does a reload.
  await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
  expect(await screen.findByLabelText('User name')).toBeTruthy();
  view.unmount();
  renderAt('/inbox', <OpsArea />);
  expect(await screen.findByLabelText('User name')).toBeTruthy();
});

it('an admin lists the accounts and creates one (the CSRF token sent with the session cookie)', async () => {
  renderAt('/accounts', <OpsArea />);
  await signInAs('desk-admin');
  const table = await screen.findByRole('table', { name: 'Operations accounts' });
  await waitFor(() => expect(table.textContent).toContain('desk-maker'));

  await userEvent.type(screen.getByRole('textbox', { name: 'User name' }), 'desk-checker');
  await userEvent.click(screen.getByRole('checkbox', { name: 'checker' }));
  await userEvent.type(screen.getByLabelText('Initial password'), 'short');
  await userEvent.click(screen.getByRole('button', { name: 'Create the account' }));
  expect(await screen.findByText(/at least 12 characters/)).toBeTruthy();
  await userEvent.type(screen.getByLabelText('Initial password'), ' but now long enough');
  await userEvent.click(screen.getByRole('button', { name: 'Create the account' }));
  expect(await screen.findByText('Account desk-checker created.')).toBeTruthy();
  await waitFor(() => expect(table.textContent).toContain('desk-checker'));
  expect(table.textContent).toContain('checker');
});

it('asks the server for a session only where this browser has signed in (no refused request on a first visit)', async () => {
  localStorage.clear();
  const asked: string[] = [];
  const realFetch = window.fetch.bind(window);
  const spy = vi.spyOn(window, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    asked.push(`${init?.method ?? 'GET'} ${new URL(url, window.location.href).pathname}`);
    return realFetch(input, init);
  });
  try {
    const first = renderAt('/inbox', <OpsArea />);
    await signInAs('desk-maker');
    expect((await screen.findByTestId('ops-user')).textContent).toBe('desk-maker (maker)');
    // The first visit showed the sign-in without a GET of the session (it would have been a 401).
    expect(asked.filter((a) => a.endsWith('/v1/ops/session'))).toEqual(['POST /v1/ops/session']);
    first.unmount();

    // A reload of a signed-in browser asks for its session and finds it.
    renderAt('/inbox', <OpsArea />);
    expect((await screen.findByTestId('ops-user')).textContent).toBe('desk-maker (maker)');
    expect(asked.filter((a) => a.endsWith('/v1/ops/session'))).toEqual(['POST /v1/ops/session', 'GET /v1/ops/session']);
  } finally {
    spy.mockRestore();
  }
});
