import { useMutation } from '@tanstack/react-query';
import type { ReportBody, ReportReceipt } from '../../../../contract/reports';
import { answeredError, newCorrelationId, unreachable } from '../../../lib/api-client';
import { readCorrespondentId } from '../../../lib/correspondent-id';

const PATH = '/v1/reports';

/** POST /v1/reports with the teller's correspondent id, as every lookup carries it; sent once (no retry loop). */
export async function sendReport(body: ReportBody): Promise<ReportReceipt> {
  const correlationId = newCorrelationId();
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/json',
    'x-correlation-id': correlationId,
  };
  const financialId = readCorrespondentId();
  if (financialId) headers['x-fapi-financial-id'] = financialId;
  let response: Response;
  try {
    response = await fetch(PATH, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    throw unreachable('POST', PATH, correlationId, error);
  }
  if (!response.ok)
    throw await answeredError('POST', PATH, response, response.headers.get('x-correlation-id') ?? correlationId);
  return (await response.json()) as ReportReceipt;
}

export const useSendReport = () => useMutation({ mutationFn: sendReport });
