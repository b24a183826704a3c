import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LazyCorrespondentForm as CorrespondentForm } from './lazy-correspondent-form';

/** Shown instead of the screens until the teller has given their agent correspondent id. */
export function SignIn() {
  const { t } = useTranslation();
  return (
    <Paper component="section" aria-labelledby="sign-in-title" sx={{ p: 3, maxWidth: 420, mx: 'auto', mt: 4 }}>
      <Typography id="sign-in-title" component="h1" variant="h5" gutterBottom>
        {t('correspondent.signInTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('correspondent.signInIntro')}
      </Typography>
      <CorrespondentForm />
    </Paper>
  );
}
