import { useForm, type Resolver } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { SignInCard } from '../../../components/ui/sign-in-card';
import type { SignInBody } from '../../../../contract/ops-auth';
import { ApiError, errorSentence } from '../../../lib/api-client';
import { fieldHelp } from '../../../lib/field-slots';
import { useSignIn } from '../api/sign-in';

/**
 * The contract's sign-in schema checks the form, loaded when the form is first submitted: zod and the contract are
 * the desk's largest chunk, and the sign-in screen is part of the first load (its budget, `npm run size`).
 */
const contractResolver: Resolver<SignInBody> = async (values, context, options) => {
  const [{ zodResolver }, { signInBody }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('../../../../contract/ops-auth'),
  ]);
  return zodResolver(signInBody)(values, context, options);
};

/**
 * The ops account's sign-in. The fields are uncontrolled (react-hook-form's register) and the user name has the
 * focus from its first frame: whatever is typed as soon as the field shows is kept, nothing re-renders it away.
 */
export function OpsSignIn() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const { register, handleSubmit, formState } = useForm<SignInBody>({ resolver: contractResolver });
  const required = () => t('validation.required');
  const refused = signIn.error instanceof ApiError && (signIn.error.status === 401 || signIn.error.status === 400);
  return (
    <SignInCard
      titleId="ops-sign-in-title"
      title={t('ops.signIn.title')}
      intro={t('ops.signIn.intro')}
      onSubmit={handleSubmit((values) => signIn.mutate(values))}
      describedBy={signIn.error ? 'ops-sign-in-error' : undefined}
    >
      <TextField
        {...register('name')}
        label={t('ops.signIn.name')}
        autoFocus
        autoComplete="username"
        {...fieldHelp(formState.errors.name, ' ', required)}
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
      />
      <TextField
        {...register('password')}
        type="password"
        label={t('ops.signIn.password')}
        autoComplete="current-password"
        {...fieldHelp(formState.errors.password, ' ', required)}
      />
      {signIn.error && (
        <Alert severity="error" role="alert" id="ops-sign-in-error">
          {refused
            ? t('ops.signIn.refused')
            : signIn.error instanceof ApiError && signIn.error.status === 429
              ? t('ops.signIn.tooMany')
              : errorSentence(signIn.error)}
        </Alert>
      )}
      <Button type="submit" variant="contained" loading={signIn.isPending}>
        {t('ops.signIn.submit')}
      </Button>
    </SignInCard>
  );
}
