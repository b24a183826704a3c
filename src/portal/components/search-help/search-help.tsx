import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { SearchSuggestion, SuggestionField, SuggestionsResponse } from '../../../contract';
import { apiGet, type QueryValues } from '../../lib/api-client';
import { formatNumber } from '../../lib/i18n';

// The empty state of a search that says what it can prove (GET /v1/suggestions/…): another letter case, another
// name of a place, the mode-04 pattern, a close spelling, a filter that excludes every row, or nothing in the
// country at all; and the searches that find rows, each with the count that search finds when taken.

export type SuggestionChanges = SearchSuggestion['changes'];

const useSuggestions = (path: string, params: QueryValues, enabled: boolean) =>
  useQuery({
    queryKey: ['suggestions', path, params],
    queryFn: ({ signal }) => apiGet<SuggestionsResponse>(path, { query: params, signal }),
    enabled,
    staleTime: 30_000,
  });

export function SearchHelp({
  screen,
  params,
  message,
  onTake,
}: {
  screen: 'agents' | 'branches';
  /** The empty search's parameters (as sent to the list, without paging). */
  params: QueryValues;
  /** The empty answer's own sentence ("No agents match …"). */
  message: string;
  /** Takes a suggestion: the screen sets its fields and searches. */
  onTake: (changes: SuggestionChanges) => void;
}) {
  const { t } = useTranslation();
  const { pageNumber: _page, pageSize: _size, ...query } = params;
  const help = useSuggestions(`/v1/suggestions/${screen}`, query, true);
  const answer = help.data;
  const fieldLabel = (field: SuggestionField) => t(`searchHelp.field.${field}`);
  const noun = screen === 'agents' ? 'results.agents' : 'results.branches';
  const label = (suggestion: SearchSuggestion) => {
    const counted = t(noun, { count: suggestion.totalItems, formatted: formatNumber(suggestion.totalItems) });
    const entries = Object.entries(suggestion.changes) as [SuggestionField, string][];
    if (suggestion.kind === 'filter') return t('searchHelp.without', { filter: fieldLabel(entries[0][0]), counted });
    const values = entries.map(([field, value]) =>
      entries.length > 1 || field !== 'search' ? `${fieldLabel(field)}: "${value}"` : `"${value}"`,
    );
    return t('searchHelp.take', { values: values.join(', '), counted });
  };
  return (
    <Alert severity="info" role="status" data-testid="results-empty">
      {message}
      {answer?.cause && (
        <div data-testid="empty-cause" data-cause={answer.cause}>
          {t(`searchHelp.cause.${answer.cause}`, { filter: answer.filter ? fieldLabel(answer.filter) : '' })}
        </div>
      )}
      {answer && answer.suggestions.length > 0 && (
        <div data-testid="did-you-mean">
          {t('teller.didYouMean')}{' '}
          {answer.suggestions.map((suggestion, i) => (
            <span key={JSON.stringify(suggestion.changes)}>
              {i > 0 && ', '}
              <Button
                size="small"
                data-testid="suggestion"
                data-count={suggestion.totalItems}
                onClick={() => onTake(suggestion.changes)}
                sx={{ p: 0, minWidth: 0, verticalAlign: 'baseline', textTransform: 'none' }}
              >
                {label(suggestion)}
              </Button>
            </span>
          ))}
          ?
        </div>
      )}
    </Alert>
  );
}
