import { Link as RouterLink } from 'wouter';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CodeNear as CodeNearAnswer, CodeSuggestion } from '../../../../contract';
import { countryName } from '../../../lib/i18n';
import { codeLookupLink } from '../../../lib/links';
import { useReceivingSelection } from '../../../lib/url-state';

// A code with no match (GET /v1/codes/{code}, `near`): the bank its leading characters name, and the held codes
// one character off, each a link that looks it up (the customer's slip of one digit is one tap away).

function Suggestion({ suggestion }: { suggestion: CodeSuggestion }) {
  const { t } = useTranslation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  const { code, kind, bankName, name, city } = suggestion;
  const what = [kind === 'bank' ? null : bankName, name, city].filter(Boolean).join(', ');
  return (
    <li>
      <Link
        component={RouterLink}
        to={codeLookupLink(code, { receivingCountry, deliveryMode })}
        aria-label={t('code.nearCode', { code })}
        sx={{ display: 'inline-block', py: 0.75, fontFamily: 'monospace', fontWeight: 600 }}
      >
        {code}
      </Link>{' '}
      — {t(`code.kind.${kind}`)} · {countryName(suggestion.receivingCountry)}
      {kind === 'bank' ? `: ${bankName ?? ''}` : what && `: ${what}`}
    </li>
  );
}

export function CodeNear({ code, near }: { code: string; near: CodeNearAnswer }) {
  const { t } = useTranslation();
  const { bank, suggestions } = near;
  return (
    <Alert severity="info" data-testid="code-near">
      {bank && (
        <Typography data-testid="code-near-bank" sx={{ mb: 1 }}>
          {t(bank.held ? 'code.nearBank' : 'code.nearBankNotHeld', {
            bankCode: bank.bankCode,
            bank: bank.bankName,
            country: bank.receivingCountry,
          })}
        </Typography>
      )}
      <Typography component="h2" variant="body1" sx={{ fontWeight: 600 }}>
        {suggestions.length ? t('code.nearCodes', { code }) : t('code.nearNone', { code })}
      </Typography>
      {suggestions.length > 0 && (
        <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
          {suggestions.map((s) => (
            <Suggestion key={`${s.kind}:${s.receivingCountry}:${s.code}`} suggestion={s} />
          ))}
        </Box>
      )}
    </Alert>
  );
}
