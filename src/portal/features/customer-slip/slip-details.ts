import type { TFunction } from 'i18next';
import type { Agent, BranchDetail } from '../../../contract';
import { ACCOUNT_TRANSFER_TO_OTHER_BANK } from '../../../contract/constants';
import { branchCodeName, paymentRails } from '../../../contract/countries';
import { railText } from '../../lib/payment-rails';

/** What a slip is about: a bank branch (delivery mode 04) or an agent of a payout network. */
export type SlipSubject =
  { kind: 'branch'; branch: BranchDetail } | { kind: 'agent'; agent: Agent; deliveryMode: string };

/** The receiving country as GET /v1/receiving-countries serves it (undefined while it loads). */
export interface SlipCountry {
  name?: string;
  currency?: string;
}

export interface SlipRow {
  key: string;
  label: string;
  value: string;
}

const joined = (parts: (string | null | undefined)[]) => parts.filter((part) => part && part.trim()).join(', ');

/**
 * The details a customer takes away, in the order the slip prints them and "copy all details" writes them: the
 * same rows on paper, in the clipboard and in a share. Rows the data set does not hold are left out; the payment
 * rails only for a country they apply to.
 */
export function slipRows(subject: SlipSubject, country: SlipCountry, t: TFunction, language: string): SlipRow[] {
  const rows: SlipRow[] = [];
  const add = (key: string, label: string, value: string | null | undefined) => {
    if (value && value.trim()) rows.push({ key, label, value });
  };
  if (subject.kind === 'branch') {
    const b = subject.branch;
    const state = b.stateName ?? b.state;
    add('name', t('columns.branch'), b.branchName);
    add('bank', t('slip.bank'), b.bankName);
    add('code', branchCodeName(b.receivingCountry, language), b.routingNumber);
    add('address', t('slip.address'), joined([b.branchLocation, b.address, b.city, b.district, state]));
    add('country', t('slip.country'), b.receivingCountryName);
    add('currency', t('common.payoutCurrency'), country.currency);
    const rails = paymentRails(b.receivingCountry);
    if (rails.length > 0)
      add(
        'rails',
        t('slip.rails'),
        rails.map((name) => `${t(`branchDetail.${name}`)}: ${railText(t, b[name])}`).join(', '),
      );
    return rows;
  }
  const a = subject.agent;
  const isBranch = Number(subject.deliveryMode) === ACCOUNT_TRANSFER_TO_OTHER_BANK;
  add('name', t('slip.name'), a.agentName);
  add('bank', t('slip.bank'), a.bankName);
  add('headOffice', t('slip.headOffice'), `${a.headOfficeName} (${a.receivingAgentHeadOfficeCode})`);
  add(
    'code',
    isBranch ? branchCodeName(a.receivingCountry, language) : t('slip.agentCode'),
    isBranch ? (a.routingNumber ?? a.agentCode) : a.agentCode,
  );
  add('address', t('slip.address'), joined([a.addressLine1, a.addressLine2, a.city, a.stateName ?? a.state]));
  add('phone', t('slip.phone'), a.phoneNumber);
  add('country', t('slip.country'), country.name);
  add('currency', t('common.payoutCurrency'), country.currency);
  return rows;
}

/** The slip as plain text: its title, then one "Label: value" line per row. */
export const slipText = (title: string, rows: SlipRow[]): string =>
  [title, ...rows.map((row) => `${row.label}: ${row.value}`)].join('\n');
