import { z } from 'zod';
import type { TFunction } from 'i18next';
import { countryProfile } from '../../../../contract/countries';
import type { ChangeKind } from '../../../../contract/ops-changes';
import type { EditsBody, RecordEdit } from '../../../../contract/ops-edits';
import type { RecordFields } from '../../../../contract/ops-records';
import { WITHOUT_CONTROL_CHARACTERS } from '../../../../contract/primitives';

// The client side of a change without a file: the record's fields in a form, checked before anything is sent
// by the rules a row of the import file meets on its own (required fields, the country's bank code and routing
// number formats from its profile, no control characters). The server checks them again with everything else
// (served countries, duplicates, references) and answers a problem the form shows.

/** The columns of a new record, in the order the import format has them (camelCase, as a record page shows). */
export const NEW_RECORD_FIELDS: Record<ChangeKind, readonly string[]> = {
  branches: [
    'country',
    'bankCode',
    'bankName',
    'routingNumber',
    'branchName',
    'addressLine1',
    'addressLine2',
    'city',
    'district',
    'state',
  ],
  agents: [
    'agentCode',
    'headOfficeCode',
    'country',
    'agentName',
    'addressLine1',
    'addressLine2',
    'city',
    'state',
    'phoneNumber',
  ],
  partners: ['code', 'country', 'name', 'networkName', 'payoutType', 'deliveryModes', 'bankCodes', 'demoLocations'],
};

/** Fields a record of the kind cannot be without. */
const REQUIRED: Record<ChangeKind, readonly string[]> = {
  branches: ['country', 'bankCode', 'bankName', 'branchName'],
  agents: ['agentCode', 'headOfficeCode', 'country', 'agentName'],
  partners: ['code', 'country', 'name', 'networkName', 'payoutType', 'deliveryModes'],
};

/** The longest cell the importer takes. */
const MAX_TEXT = 300;

export type FormValues = Record<string, string>;

/** The form's values of a record: every field as text ('' for a field it does not hold). */
export const formValuesOf = (fields: readonly string[], record: RecordFields | null): FormValues =>
  Object.fromEntries(fields.map((name) => [name, record?.[name] ?? '']));

/** The schema of the form's values: per field, then the rules across fields (a branch's codes, by country). */
export function recordFormSchema(kind: ChangeKind, fields: readonly string[], t: TFunction) {
  const field = (name: string) => {
    const text = z
      .string()
      .trim()
      .max(MAX_TEXT, t('validation.tooLong', { max: MAX_TEXT }))
      .regex(WITHOUT_CONTROL_CHARACTERS, t('validation.controlCharacters'));
    return REQUIRED[kind].includes(name) ? text.min(1, t('validation.required')) : text;
  };
  const shape = Object.fromEntries(fields.map((name) => [name, field(name)]));
  return z.object(shape).superRefine((values: FormValues, ctx) => {
    const country = values.country ?? '';
    if ('country' in values && country && !/^[A-Z]{2}$/.test(country))
      ctx.addIssue({ code: 'custom', path: ['country'], message: t('ops.records.edit.countryFormat') });
    if (kind !== 'branches' || !/^[A-Z]{2}$/.test(country)) return;
    const codes = countryProfile(country).codes;
    if (codes && values.bankCode && !codes.bank.test(values.bankCode))
      ctx.addIssue({
        code: 'custom',
        path: ['bankCode'],
        message: t('ops.records.edit.rule', { rule: codes.importBankDescription }),
      });
    const routing = codes?.routingNumberProblem?.({
      bank_code: values.bankCode ?? '',
      routing_number: values.routingNumber ?? '',
      district: values.district ?? '',
    });
    if (routing)
      ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: t('ops.records.edit.rule', { rule: routing }) });
  });
}

/** A value as an edit carries it: an emptied field is null (the record no longer holds it). */
const asEdit = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The fields that differ from the record as served; empty when nothing changed. */
export function changedFields(values: FormValues, record: RecordFields): Record<string, string | null> {
  const changed: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value.trim() !== (record[name] ?? '').trim()) changed[name] = asEdit(value);
  }
  return changed;
}

/** A new record's fields: the ones filled in. */
export const filledFields = (values: FormValues): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values).flatMap(([name, value]) => (value.trim() === '' ? [] : [[name, value.trim()]])),
  );

/** The body of POST /v1/ops/changes for one edit. */
export const editsOf = (kind: ChangeKind, edit: RecordEdit): EditsBody => ({ kind, edits: [edit] });
