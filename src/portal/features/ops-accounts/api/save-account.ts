import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateAccountBody, OpsAccount, UpdateAccountBody } from '../../../../contract/ops-auth';
import { opsRequest } from '../../../lib/api-client';

export const createAccount = (body: CreateAccountBody) => opsRequest<OpsAccount>('POST', '/v1/ops/accounts', { body });

export const updateAccount = ({ name, ...body }: { name: string } & UpdateAccountBody) =>
  opsRequest<OpsAccount>('PATCH', `/v1/ops/accounts/${encodeURIComponent(name)}`, { body });

function useAccountMutation<V>(save: (variables: V) => Promise<OpsAccount>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['ops', 'accounts'] }),
  });
}

export const useCreateAccount = () => useAccountMutation(createAccount);
export const useUpdateAccount = () => useAccountMutation(updateAccount);
