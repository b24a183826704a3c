import { useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from './results-view';

export interface FilterFold {
  /** On a phone, once searched: the filters are hidden behind the summary. */
  folded: boolean;
  /** Spread on the screen's filter form. */
  form: {
    id: string;
    ref: (element: HTMLFormElement | null) => void;
    style?: CSSProperties;
    onSubmitCapture: () => void;
  };
  /** Drawn just above the form: the one-line summary that opens the filters again (folded, on a phone). */
  summary: ReactNode;
  /** Drawn just below the filters: "Show results", which searches and folds them (open, on a phone). */
  done: ReactNode;
}

/**
 * A screen's filters on a phone: open while the teller fills them in, folded into a one-line summary of what they
 * hold once the search is made (Enter, the keyboard's Go key, or "Show results"), so the first answer is on screen
 * without scrolling; the summary opens them again. A screen opened with filters already set (a link, a recent
 * search) starts folded. On wider screens the filters are always shown, as before.
 */
export function useFilterFold(values: (string | undefined)[]): FilterFold {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const id = useId();
  const shown = values.filter((value): value is string => Boolean(value));
  const [open, setOpen] = useState(() => shown.length === 0);
  const formElement = useRef<HTMLFormElement | null>(null);
  const summaryElement = useRef<HTMLButtonElement | null>(null);
  const folded = isPhone && !open;

  const fold = () => {
    if (!isPhone) return;
    setOpen(false);
    // The field just left sat lower on the page: the teller is brought back to the summary, the answers under it.
    (document.activeElement as HTMLElement | null)?.blur();
    // When the page from its top down to the summary fits on the screen, it is shown from its top (the app bar, the
    // summary and the first answers); else the summary is brought into view.
    requestAnimationFrame(() => {
      const summary = summaryElement.current;
      if (!summary) return;
      const top = summary.getBoundingClientRect().top + window.scrollY;
      if (top < window.innerHeight / 2) window.scrollTo({ top: 0 });
      else summary.scrollIntoView({ block: 'nearest' });
    });
  };
  const reopen = () => {
    setOpen(true);
    // The first field takes the focus: a teller opening the filters means to change one.
    requestAnimationFrame(() => formElement.current?.querySelector<HTMLElement>('input:not([type=hidden])')?.focus());
  };

  return {
    folded,
    form: {
      id,
      ref: (element) => {
        formElement.current = element;
      },
      style: folded ? { display: 'none' } : undefined,
      onSubmitCapture: fold,
    },
    summary: folded && (
      <Button
        ref={summaryElement}
        variant="outlined"
        startIcon={<FilterListIcon />}
        aria-expanded={false}
        aria-controls={id}
        onClick={reopen}
        sx={{ justifyContent: 'flex-start', textTransform: 'none', textAlign: 'start' }}
      >
        {shown.length > 0 ? t('filters.summary', { values: shown.join(' · ') }) : t('filters.none')}
      </Button>
    ),
    done: isPhone && open && (
      <Button variant="outlined" onClick={() => formElement.current?.requestSubmit()} sx={{ alignSelf: 'stretch' }}>
        {t('filters.show')}
      </Button>
    ),
  };
}
