import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeKind, ChangeSummary } from '../../../../contract/ops-changes';
import type { FileReading } from '../../../../contract/ops-files';
import type { ChangeScope } from '../../../../contract/ops-edits';
import { opsUpload } from '../../../lib/api-client';

export interface StageRequest {
  kind: ChangeKind;
  file: File;
  reading?: FileReading;
  /** What the change replaces; absent: the whole kind. */
  scope?: ChangeScope;
  onProgress: (share: number) => void;
}

/** Uploads the file (multipart, streamed by the server); the answer is the change, validating. */
export function stageChange({ kind, file, reading, scope, onProgress }: StageRequest) {
  const form = new FormData();
  form.append('kind', kind);
  if (reading) form.append('reading', JSON.stringify(reading));
  if (scope) form.append('scope', JSON.stringify(scope));
  // The file last: the server reads the fields before it streams the file.
  form.append('file', file, file.name);
  return opsUpload<ChangeSummary>('/v1/ops/changes', form, onProgress);
}

export function useStageChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stageChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ops', 'changes'] }),
  });
}
