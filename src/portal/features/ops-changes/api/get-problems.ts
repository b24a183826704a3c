import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { OpsPage, ValidationProblem, problemsQuery } from '../../../../contract/ops-changes';
import { opsRequest, withQuery } from '../../../lib/api-client';

export type ProblemsParams = Partial<z.output<typeof problemsQuery>>;

const problemsPath = (id: string) => `/v1/ops/changes/${encodeURIComponent(id)}/problems`;

export const getProblems = (id: string, params: ProblemsParams, signal?: AbortSignal) =>
  opsRequest<OpsPage<ValidationProblem>>('GET', problemsPath(id), { query: params, signal });

/** Every problem of the change as CSV (the browser downloads it with the session cookie). */
export const problemsCsvHref = (id: string) => withQuery(`${problemsPath(id)}.csv`);

export const problemsQueryOptions = (id: string, params: ProblemsParams) =>
  queryOptions({
    queryKey: ['ops', 'change', id, 'problems', params],
    queryFn: ({ signal }) => getProblems(id, params, signal),
    placeholderData: keepPreviousData,
  });

export const useProblems = (id: string, params: ProblemsParams, enabled: boolean) =>
  useQuery({ ...problemsQueryOptions(id, params), enabled });
