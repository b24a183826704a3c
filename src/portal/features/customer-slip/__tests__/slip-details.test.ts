import { beforeAll, describe, expect, it } from 'vitest';
import type { BranchDetail } from '../../../../contract';
import { i18n } from '../../../lib/i18n';
import '../slip-i18n';
import { slipRows, slipText } from '../slip-details';

// The slip's rows in each interface language: the country's name for the code, the glossary's terms, and the
// rails only where they apply.

const branch = (country: string, name: string): BranchDetail => ({
  branchId: `${country}-X`,
  bankCode: '010',
  bankName: 'SONALI BANK PLC',
  routingNumber: '010150166',
  branchName: 'MOHAKHALI',
  branchLocation: 'Road 1',
  address: null,
  city: 'Dhaka',
  district: 'Dhaka',
  state: null,
  stateName: null,
  receivingCountry: country,
  receivingCountryName: name,
  branchCodeName: 'Routing number',
  neft: null,
  rtgs: null,
  imps: null,
  upi: null,
  headOffices: [],
});

beforeAll(async () => {
  await i18n.changeLanguage('es');
});

describe('the customer slip', () => {
  it('a Bangladesh branch in Spanish: número de ruta, moneda de pago, no India rails', () => {
    const t = i18n.getFixedT('es');
    const rows = slipRows({ kind: 'branch', branch: branch('BD', 'Bangladesh') }, { currency: 'taka (BDT)' }, t, 'es');
    expect(rows.map((r) => r.label)).toEqual([
      'Sucursal',
      'Banco',
      'Número de ruta',
      'Dirección',
      'País',
      'Moneda de pago',
    ]);
    expect(slipText(t('slip.title'), rows)).toBe(
      [
        'Datos para el cliente',
        'Sucursal: MOHAKHALI',
        'Banco: SONALI BANK PLC',
        'Número de ruta: 010150166',
        'Dirección: Road 1, Dhaka, Dhaka',
        'País: Bangladesh',
        'Moneda de pago: taka (BDT)',
      ].join('\n'),
    );
  });

  it('an India branch: IFSC and its rails, each held or not', () => {
    const t = i18n.getFixedT('en');
    const rows = slipRows(
      { kind: 'branch', branch: { ...branch('IN', 'India'), neft: true, upi: false } },
      { currency: 'INR' },
      t,
      'en',
    );
    expect(rows.find((r) => r.key === 'code')?.label).toBe('IFSC');
    expect(rows.find((r) => r.key === 'rails')?.value).toBe('NEFT: yes, RTGS: not held, IMPS: not held, UPI: no');
  });
});
