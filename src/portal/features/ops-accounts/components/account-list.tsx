import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import {
  OPS_PASSWORD_MIN_LENGTH,
  OPS_ROLES,
  createAccountBody,
  type CreateAccountBody,
  type OpsAccount,
  type OpsRole,
} from '../../../../contract/ops-auth';
import { OpsQueryState } from '../../../components/ui/ops-query-state';
import { OpsTable } from '../../../components/ui/ops-table';
import { ProblemAlert } from '../../../components/ui/problem-alert';
import { fieldHelp } from '../../../lib/field-slots';
import { translateRule } from '../../../lib/i18n';
import { useAccounts } from '../api/get-accounts';
import { useCreateAccount, useUpdateAccount } from '../api/save-account';

/** Admins: the ops accounts, their roles, enabling and disabling them, and a new account. */
export function AccountList({ user }: { user: { name: string; roles: OpsRole[] } }) {
  const { t } = useTranslation();
  const admin = user.roles.includes('admin');
  const query = useAccounts(admin);
  const update = useUpdateAccount();
  if (!admin)
    return (
      <Alert severity="info" role="status">
        {t('ops.accounts.adminOnly')}
      </Alert>
    );
  return (
    <Stack spacing={2}>
      <OpsQueryState query={query} />
      {update.error && <ProblemAlert error={update.error} />}
      {query.data && (
        <OpsTable
          label={t('ops.accounts.tableLabel')}
          columns={(['name', 'roles', 'state'] as const).map((key) => t(`ops.accounts.${key}`))}
        >
          {query.data.data.map((account: OpsAccount) => (
            <TableRow key={account.name}>
              <TableCell>{account.name}</TableCell>
              <TableCell>{account.roles.map((role) => t(`ops.roles.${role}`)).join(', ')}</TableCell>
              <TableCell>
                <Button
                  size="small"
                  disabled={account.name === user.name}
                  loading={update.isPending && update.variables?.name === account.name}
                  onClick={() => update.mutate({ name: account.name, disabled: !account.disabled })}
                  aria-label={t(account.disabled ? 'ops.accounts.enableOf' : 'ops.accounts.disableOf', {
                    name: account.name,
                  })}
                >
                  {t(account.disabled ? 'ops.accounts.enable' : 'ops.accounts.disable')}
                </Button>
                {account.disabled && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {t('ops.accounts.disabled')}
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </OpsTable>
      )}
      <NewAccountForm />
    </Stack>
  );
}

function NewAccountForm() {
  const { t } = useTranslation();
  const create = useCreateAccount();
  const { register, handleSubmit, control, formState, reset } = useForm<CreateAccountBody>({
    resolver: zodResolver(createAccountBody),
    defaultValues: { name: '', roles: [], password: '' },
  });
  return (
    <Paper variant="outlined" component="section" aria-labelledby="new-account-title" sx={{ p: 2, maxWidth: 520 }}>
      <Stack
        component="form"
        noValidate
        spacing={2}
        onSubmit={handleSubmit((body) => create.mutate(body, { onSuccess: () => reset() }))}
      >
        <Typography id="new-account-title" component="h2" variant="h6">
          {t('ops.accounts.new')}
        </Typography>
        <TextField
          {...register('name')}
          label={t('ops.accounts.name')}
          autoComplete="off"
          {...fieldHelp(formState.errors.name, ' ')}
        />
        <Controller
          control={control}
          name="roles"
          render={({ field, fieldState }) => (
            <FormControl error={Boolean(fieldState.error)} component="fieldset">
              <FormLabel component="legend">{t('ops.accounts.roles')}</FormLabel>
              <FormGroup row>
                {OPS_ROLES.map((role) => (
                  <FormControlLabel
                    key={role}
                    label={t(`ops.roles.${role}`)}
                    control={
                      <Checkbox
                        checked={field.value.includes(role)}
                        onChange={(event) =>
                          field.onChange(
                            event.target.checked ? [...field.value, role] : field.value.filter((r) => r !== role),
                          )
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              {fieldState.error && <FormHelperText>{translateRule(fieldState.error.message)}</FormHelperText>}
            </FormControl>
          )}
        />
        <TextField
          {...register('password')}
          type="password"
          label={t('ops.accounts.password')}
          autoComplete="new-password"
          {...fieldHelp(formState.errors.password, t('ops.accounts.passwordHint', { min: OPS_PASSWORD_MIN_LENGTH }))}
        />
        {create.error && <ProblemAlert error={create.error} />}
        {create.isSuccess && (
          <Alert severity="success" role="status">
            {t('ops.accounts.created', { name: create.data.name })}
          </Alert>
        )}
        <div>
          <Button type="submit" variant="contained" loading={create.isPending}>
            {t('ops.accounts.create')}
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
