import { useMutation } from '@tanstack/react-query';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { DetectedLayout } from '../../../../contract/ops-files';
import { opsRequest } from '../../../lib/api-client';

/** Sends the file's first 64 KB: the server answers which layout it sees and suggests a column mapping. */
export function detectLayout({ kind, file }: { kind: ChangeKind; file: File }) {
  const form = new FormData();
  form.append('kind', kind);
  form.append('file', file.name.toLowerCase().endsWith('.xlsx') ? file : file.slice(0, 64 * 1024), file.name);
  return opsRequest<DetectedLayout>('POST', '/v1/ops/files/detect', { body: form });
}

export const useDetectLayout = () => useMutation({ mutationFn: detectLayout });
