import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TestApp } from '../../../../testing/test-app';
import { readCorrespondentId, saveCorrespondentId } from '../../../lib/correspondent-id';
import { startPortalApi } from '../../../testing/portal-api';
import { CorrespondentForm } from '../components/correspondent-form';

let api: TestApp;
beforeAll(async () => {
  api = await startPortalApi();
});
afterAll(async () => api.close());
afterEach(() => saveCorrespondentId(null));

it('rejects an id outside the contract pattern, upper-cases a typed one and keeps it once the service accepts it', async () => {
  render(<CorrespondentForm />);
  const field = screen.getByLabelText('Agent correspondent id');
  await userEvent.type(field, 'ab12');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(
    await screen.findByText('The id must be two upper-case letters followed by four upper-case letters or digits.'),
  ).toBeTruthy();
  expect(readCorrespondentId()).toBeNull();

  await userEvent.clear(field);
  await userEvent.type(field, 'ab12cd');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(readCorrespondentId()).toBe('AB12CD'));
});
