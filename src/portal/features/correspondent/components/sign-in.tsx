import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { SignInCard } from '../../../components/ui/sign-in-card';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { CORRESPONDENT_ID_INPUT } from './id-input';

/** The id of the first field of the screens: the receiving country (receiving-selector.tsx). */
const FIRST_FIELD_ID = 'receiving-country';

/** After sign-in the teller goes on typing: the focus waits for the first field of the next screen. */
function focusFirstField() {
  const started = Date.now();
  const look = () => {
    const field = document.getElementById(FIRST_FIELD_ID);
    if (field) field.focus();
    else if (Date.now() - started < 5_000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/**
 * Shown instead of the screens until the teller has given their agent correspondent id. The field is drawn with
 * the page and has the focus at once, so keys typed as soon as it shows are kept (a field from a lazy
 * chunk took the focus 0.3–1 s late); the check (the contract's pattern, then the service) loads on submit.
 */
export function SignIn() {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const [checking, setChecking] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const id = value.trim().toUpperCase();
    setChecking(true);
    try {
      const { correspondentIdProblem } = await import('./correspondent-form');
      const refusal = await correspondentIdProblem(id);
      setProblem(refusal);
      if (refusal) return;
      saveCorrespondentId(id);
      focusFirstField();
    } finally {
      setChecking(false);
    }
  };
  return (
    <SignInCard
      titleId="sign-in-title"
      title={t('correspondent.signInTitle')}
      intro={t('correspondent.signInIntro')}
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        // Ids are issued in upper case; "ab12cd" typed on a phone keyboard is the same id.
        name="x-fapi-financial-id"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        label={t('correspondent.field')}
        placeholder="AB12CD"
        autoFocus
        autoComplete="off"
        error={Boolean(problem)}
        helperText={problem ?? t('correspondent.hint')}
        slotProps={CORRESPONDENT_ID_INPUT}
      />
      <Button type="submit" variant="contained" loading={checking}>
        {t('correspondent.signIn')}
      </Button>
    </SignInCard>
  );
}
