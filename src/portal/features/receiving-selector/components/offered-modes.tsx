import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DeliveryMode, ReceivingCountry } from '../../../../contract';
import { modeNamedBy, splitModes, useOfferedModesSentence } from '../lib/offered-modes';

/**
 * Under the selector, once a country is chosen: the delivery modes it offers, in words, and those it does not
 * (India: account transfer only, no cash pickup). A link naming a mode the country does not offer gets the same
 * sentence and a button per offered mode that takes it, instead of the service's refusal.
 */
export function OfferedModes({
  country,
  countryName,
  modes,
  deliveryMode,
  modeName,
  onChoose,
}: {
  country: ReceivingCountry;
  countryName: string;
  /** The delivery-mode catalogue. */
  modes: DeliveryMode[];
  /** The mode in the URL, as written. */
  deliveryMode: string;
  modeName: (mode: DeliveryMode) => string;
  onChoose: (code: string) => void;
}) {
  const { t } = useTranslation();
  const sentence = useOfferedModesSentence()(countryName, country, modes);
  const named = deliveryMode ? modeNamedBy(modes, deliveryMode) : undefined;
  const { offered } = splitModes(country, modes);

  if (named && !country.deliveryModes.includes(named.code))
    return (
      <Alert severity="warning" role="alert" data-testid="mode-not-offered" sx={{ py: 0 }}>
        <span data-testid="offered-modes">
          {t('teller.offered.notOffered', { code: named.code, mode: modeName(named), country: countryName })} {sentence}
        </span>{' '}
        <ModeButtons
          modes={offered}
          label={(mode) => t('teller.offered.use', { code: mode.code, mode: modeName(mode) })}
          onChoose={onChoose}
        />
      </Alert>
    );
  // On a phone, once a mode the country offers is chosen, the mode box names it and the sentence folds away: the
  // answers stay in view (the sentence shows while choosing, and for a mode the country does not offer).
  return (
    <Typography
      variant="body2"
      data-testid="offered-modes"
      sx={{
        px: { xs: 1, sm: 0 },
        color: 'text.secondary',
        display: deliveryMode ? { xs: 'none', sm: 'block' } : 'block',
      }}
    >
      {sentence}
    </Typography>
  );
}

/** A button per mode, in a warning's text: the teller takes one of them. */
export function ModeButtons({
  modes,
  label,
  onChoose,
  py = 0,
}: {
  modes: DeliveryMode[];
  label: (mode: DeliveryMode) => string;
  onChoose: (code: string) => void;
  py?: number | { xs: number; sm: number };
}) {
  return modes.map((mode) => (
    <Button
      key={mode.code}
      size="small"
      variant="outlined"
      color="inherit"
      onClick={() => onChoose(mode.code)}
      sx={{ m: 0.25, py }}
    >
      {label(mode)}
    </Button>
  ));
}
