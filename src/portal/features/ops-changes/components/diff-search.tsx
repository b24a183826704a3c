import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

/** How long typing pauses before the difference is searched (no request per keystroke). */
const SEARCH_PAUSE_MS = 300;

/** The difference's search field: a code (routing number, IFSC, agent code) or a part of a name. */
export function DiffSearch({ onSearch }: { onSearch: (q: string | undefined) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim() || undefined), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
    // onSearch is a new function each render of the viewer; the text alone starts a search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <TextField
      size="small"
      type="search"
      label={t('ops.diff.search')}
      helperText={t('ops.diff.searchHelp')}
      value={text}
      onChange={(event) => setText(event.target.value.slice(0, 100))}
      sx={{ minWidth: 220 }}
      slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'diff-search' } }}
    />
  );
}
