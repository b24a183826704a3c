import { parentPort, workerData } from 'node:worker_threads';
import { yieldToLookups } from '../worker-thread';
import { KIND_DEFINITIONS, type ImportKindDefinition } from './kinds';
import { parseImportFile } from './read-file';
import { validateRecords, type ValidationJob, type ValidationMessage } from './validate';

// A worker thread of a publish (desk/prepare.ts buildChange): parses the change's kept bytes and validates every
// row (validate.ts), posting progress and then the verdict.

yieldToLookups();
const job = workerData as ValidationJob;
const post = (message: ValidationMessage) => parentPort!.postMessage(message);
try {
  const definition = KIND_DEFINITIONS[job.kind] as ImportKindDefinition<unknown>;
  const read = parseImportFile(job.file, job.bytes, definition.columns);
  const check = definition.prepare(job.served);
  post({
    type: 'done',
    validation: validateRecords(definition, read.records, check, (progress) => post({ type: 'progress', progress })),
  });
} catch (error) {
  post({ type: 'failed', message: (error as Error).stack ?? String(error) });
}
