import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { translateRule } from '../../../lib/i18n';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { lazyZodResolver } from '../../../lib/lazy-resolver';
import { codeLookupLink } from '../../../lib/links';
import { useReceivingSelection } from '../../../lib/url-state';

// The one box for any code, in the app bar: a teller pastes what the customer brings (an IFSC in
// any case with spaces, a routing number, a bank or agent code) and presses Enter. The box accepts exactly what
// GET /v1/codes/{code} accepts (the contract's own schema); `/` anywhere outside a field puts the cursor in it.

// The rules arrive with the contract's schemas on the first look-up (or when the box gets the focus).
const rules = lazyZodResolver<{ code: string }>(() =>
  import('../../../../contract').then(({ codePathParams }) => codePathParams),
);

/** True when the key press belongs to something the teller is typing into. */
const typingElsewhere = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.getAttribute('role') === 'combobox');

export function CodeBox() {
  const [, navigate] = useLocation();
  const { receivingCountry, deliveryMode } = useReceivingSelection();
  const input = useRef<HTMLInputElement>(null);
  const form = useForm<{ code: string }>({
    resolver: rules.resolver,
    defaultValues: { code: '' },
    mode: 'onSubmit',
  });
  const error = form.formState.errors.code?.message;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingElsewhere(event.target)) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const { t } = useTranslation();
  const { ref, ...field } = form.register('code');
  const lookUp = form.handleSubmit(({ code }) => navigate(codeLookupLink(code, { receivingCountry, deliveryMode })));
  return (
    <Box
      component="form"
      role="search"
      aria-label={t('code.box')}
      noValidate
      onSubmit={lookUp}
      onFocus={rules.load}
      // A pasted code is complete (a cheque's IFSC, a text message's routing number): it is looked up at once,
      // once the pasted text is in the field (the input event follows the paste event).
      onPaste={() => setTimeout(() => void lookUp())}
      sx={{
        bgcolor: 'background.paper',
        color: 'text.primary',
        borderRadius: 1,
        px: 1,
        pt: 0.75,
        pb: error ? 0.5 : 0.75,
        width: { xs: '100%', sm: 340 },
      }}
    >
      <TextField
        {...field}
        inputRef={(element: HTMLInputElement | null) => {
          ref(element);
          input.current = element;
        }}
        size="small"
        fullWidth
        label={t('code.box')}
        placeholder={t('code.placeholder')}
        autoComplete="off"
        error={Boolean(error)}
        helperText={error ? t('code.error', { message: translateRule(error) }) : undefined}
        slotProps={{
          htmlInput: {
            'aria-keyshortcuts': '/',
            spellCheck: false,
            autoCapitalize: 'off',
            autoCorrect: 'off',
            // "/" is never part of a code: in the box it selects what is there, ready for the next code.
            onKeyDown: (event: ReactKeyboardEvent<HTMLInputElement>) => {
              if (event.key !== '/') return;
              event.preventDefault();
              event.currentTarget.select();
            },
          },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Box
                  component="kbd"
                  aria-hidden
                  sx={{
                    border: 1,
                    borderColor: 'text.secondary',
                    borderRadius: 0.5,
                    px: 0.5,
                    fontSize: '0.75rem',
                    color: 'text.secondary',
                  }}
                >
                  /
                </Box>
              </InputAdornment>
            ),
          },
        }}
      />
      <button type="submit" hidden />
    </Box>
  );
}
