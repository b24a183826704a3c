import { z } from 'zod';
import { changeKind } from './ops-changes';
import { recordKey } from './ops-records';

// What a change covers beyond its file, and a change made without a file. Shared by the desk (staging, the
// removal guard, POST /v1/ops/changes) and the portal (the upload form's scope, the record page's edit form).

const countryCode = z.string().regex(/^[A-Z]{2}$/, 'a country code: two upper-case letters');

/**
 * A change's scope: what it may add, change or remove. Absent: today's replace (branches: the countries the file
 * holds; partners, agents: the whole kind). `{country}`: that country only; `{country, bankCode}`: one bank of one
 * country; `{mode: "upsert"}`: the file's records are added or changed, nothing is removed. Outside its scope a
 * change removes and changes nothing; a column the file does not carry keeps its served value.
 */
export const changeScope = z.union([
  z.strictObject({ mode: z.literal('upsert') }),
  z.strictObject({
    country: countryCode,
    bankCode: z
      .string()
      .regex(/^[A-Z0-9]{1,11}$/, 'a bank code: letters and digits')
      .optional(),
  }),
]);
export type ChangeScope = z.infer<typeof changeScope>;

/** A record's fields in an edit: the import format's columns (camelCase, as a record page shows them). */
const editFields = z.record(z.string(), z.string().max(500).nullable());

export const recordEdit = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('add'), fields: editFields }),
  z.strictObject({ op: z.literal('change'), key: recordKey, fields: editFields }),
  z.strictObject({ op: z.literal('remove'), key: recordKey }),
]);
export type RecordEdit = z.infer<typeof recordEdit>;

/** POST /v1/ops/changes (application/json): one or more records changed without a file, staged like a file. */
export const editsBody = z.strictObject({
  kind: changeKind,
  edits: z.array(recordEdit).min(1).max(1000),
});
export type EditsBody = z.infer<typeof editsBody>;
