import { afterEach, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readCorrespondentId, saveCorrespondentId } from '../../../lib/correspondent-id';
import { CorrespondentForm } from '../components/correspondent-form';

afterEach(() => saveCorrespondentId(null));

it('rejects an id outside the contract pattern and keeps a valid one in the browser', async () => {
  render(<CorrespondentForm />);
  const field = screen.getByLabelText('Agent correspondent id');
  await userEvent.type(field, 'ab12cd');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByText('The id must be two upper-case letters followed by four upper-case letters or digits.')).toBeTruthy();
  expect(readCorrespondentId()).toBeNull();

  await userEvent.clear(field);
  await userEvent.type(field, 'AB12CD');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(readCorrespondentId()).toBe('AB12CD'));
});
