import { useSearchParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import { CodeMatches } from '../../features/code-lookup/components/code-matches';
import { useCode } from '../../features/code-lookup/api/get-code';
import { QueryStatus } from '../../components/ui/query-status';
import { Screen } from '../../components/ui/screen';

// The answer to the app bar's code box: what the code names, across countries (GET /v1/codes/{code}).
export default function CodeScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const answer = useCode(code);
  return (
    <Screen title={t('code.title')} purpose={t('code.purpose')}>
      <QueryStatus
        isPending={answer.isPending && code !== ''}
        isFetching={answer.isFetching}
        error={answer.error}
        isEmpty={code === ''}
        empty={t('code.empty')}
        onRetry={() => void answer.refetch()}
      >
        {answer.data && <CodeMatches answer={answer.data} />}
      </QueryStatus>
    </Screen>
  );
}
