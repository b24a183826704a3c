import { Link as RouterLink } from 'wouter';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CodeFormat, CodeLookupResponse, CodeMatch, PayingHeadOffice } from '../../../../contract';
import { BANK_CODE_FORMATS } from '../../../../contract/bank-codes';
import { CopyableCode } from '../../../components/ui/copy-button';
import { useTranslation } from 'react-i18next';
import { countryName, formatNumber } from '../../../lib/i18n';
import { agentSearchLink, branchFinderLink } from '../../../lib/links';
import { CodeNear } from './code-near';

// What a code names (GET /v1/codes/{code}): each match with its country and bank, and for a branch or a bank
// the head offices that can pay into it for delivery mode 04, each a link to the branch finder filled in. With
// no match: a real IFSC not held, or what the code was looked up as and the codes one character off.

/** A code format in the interface language (the catalogue's `code.formats`; the API's English as fallback). */
function useFormatText() {
  const { t, i18n } = useTranslation();
  return (format: CodeFormat, style: 'formatOf' | 'formatIn' = 'formatOf') => {
    const key = format.receivingCountry
      ? `code.formats.${format.receivingCountry}.${format.kind}`
      : 'code.formats.agent';
    const text = i18n.exists(key) ? t(key as 'code.formats.agent') : format.description;
    return format.receivingCountry ? t(`code.${style}`, { format: text, country: format.receivingCountry }) : text;
  };
}

/** Every format of the country profiles, for a code that fits none of them. */
const ALL_FORMATS: CodeFormat[] = Object.entries(BANK_CODE_FORMATS).flatMap(([country, f]) => [
  ...(f.branchDescription
    ? [{ kind: 'branch' as const, receivingCountry: country, description: f.branchDescription }]
    : []),
  { kind: 'bank' as const, receivingCountry: country, description: f.bankDescription },
]);

function HeadOffices({ match, offices }: { match: CodeMatch; offices: PayingHeadOffice[] }) {
  const { t } = useTranslation();
  if (offices.length === 0)
    return (
      <Typography variant="body2">
        {t('code.noHeadOffice', { country: match.receivingCountry, bank: match.bankName })}
      </Typography>
    );
  return (
    <Box>
      <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
        {match.kind === 'branch' ? t('code.headOfficesBranch') : t('code.headOfficesBank', { bank: match.bankName })}
      </Typography>
      <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
        {offices.map((office) => (
          <li key={office.receivingAgentHeadOfficeCode}>
            <Link
              component={RouterLink}
              to={branchFinderLink({
                receivingCountry: match.receivingCountry,
                receivingAgentHeadOfficeCode: office.receivingAgentHeadOfficeCode,
                bankCode:
                  match.kind === 'branch' ? (match.branch?.routingNumber ?? undefined) : (match.bankCode ?? undefined),
              })}
            >
              {office.headOfficeName} ({office.receivingAgentHeadOfficeCode})
            </Link>
            {t('code.openFinder')}
          </li>
        ))}
      </Box>
    </Box>
  );
}

function BranchCount({ count }: { count: number }) {
  const { t } = useTranslation();
  return <Typography variant="body2">{t('code.branchCount', { count, formatted: formatNumber(count) })}</Typography>;
}

/** A matched branch or agent: "Branch **name** code", the code with its copy button. */
function NameAndCode({ kind, name, code }: { kind: 'branch' | 'agent'; name: string; code: string | null }) {
  const { t } = useTranslation();
  return (
    <Typography>
      {t(`code.${kind}`)} <strong>{name}</strong>{' '}
      <CopyableCode value={code} label={t(kind === 'branch' ? 'codes.routingNumber' : 'codes.agentCode')} />
    </Typography>
  );
}

function Match({ match }: { match: CodeMatch }) {
  const { t } = useTranslation();
  const { branch, agent } = match;
  const kind = t(`code.kind.${match.kind}`);
  return (
    <Paper
      variant="outlined"
      component="article"
      aria-label={t('code.matchLabel', { kind, country: match.receivingCountry })}
      sx={{ p: 2 }}
      data-testid="code-match"
    >
      <Stack spacing={1}>
        <Typography component="h2" variant="h6">
          {kind} · {countryName(match.receivingCountry)} ({match.receivingCountry})
        </Typography>
        {match.bankName && (
          <Typography>
            {t('code.bank')} {match.bankName} <CopyableCode value={match.bankCode} label={t('codes.bankCode')} />
          </Typography>
        )}
        {branch && (
          <>
            <NameAndCode kind="branch" name={branch.branchName} code={branch.routingNumber} />
            <Typography variant="body2">
              {[branch.branchLocation, branch.address].filter(Boolean).join(' · ')}
            </Typography>
            <Typography variant="body2">
              {[branch.city, branch.district, branch.stateName].filter(Boolean).join(', ')}
            </Typography>
          </>
        )}
        {match.kind === 'bank' && match.branchCount !== null && <BranchCount count={match.branchCount} />}
        {agent && (
          <>
            <NameAndCode kind="agent" name={agent.agentName} code={agent.agentCode} />
            <Typography variant="body2">
              {t('code.agentHeadOffice', {
                office: `${agent.headOfficeName} (${agent.receivingAgentHeadOfficeCode})`,
                modes: agent.deliveryModes.join(', '),
              })}
            </Typography>
            <Typography variant="body2">
              {[agent.addressLine1, agent.addressLine2, agent.city, agent.stateName, agent.phoneNumber]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
            <Link
              component={RouterLink}
              to={agentSearchLink({
                receivingCountry: agent.receivingCountry,
                deliveryMode: agent.deliveryModes[0],
                search: agent.agentName,
              })}
            >
              {t('code.openAgent', { agent: agent.agentName })}
            </Link>
          </>
        )}
        {match.kind !== 'agent' && <HeadOffices match={match} offices={match.headOffices} />}
      </Stack>
    </Paper>
  );
}

export function CodeMatches({ answer }: { answer: CodeLookupResponse }) {
  const { t } = useTranslation();
  const formatText = useFormatText();
  const { code, data, formats, issuedIfsc, near } = answer;
  const issuedBank = issuedIfsc ? (issuedIfsc.bankName ?? issuedIfsc.bankCode) : '';
  return (
    <Stack spacing={2}>
      <Typography role="status" data-testid="result-total">
        {data.length === 0
          ? t('code.none', { code })
          : t('code.matches', { count: data.length, formatted: formatNumber(data.length), code })}
      </Typography>
      {data.map((match, i) => (
        <Match key={`${match.kind}:${match.receivingCountry}:${i}`} match={match} />
      ))}
      {issuedIfsc && (
        <Alert severity="info" data-testid="issued-ifsc">
          {t('code.issued', { ifsc: issuedIfsc.ifsc, bank: issuedBank, bankCode: issuedIfsc.bankCode })}{' '}
          {issuedIfsc.headOffices.length
            ? t('code.issuedPaying', {
                bank: issuedBank,
                offices: issuedIfsc.headOffices
                  .map((h) => `${h.headOfficeName} (${h.receivingAgentHeadOfficeCode})`)
                  .join(', '),
              })
            : t('code.issuedNone', { bank: issuedBank })}
        </Alert>
      )}
      {data.length === 0 && !issuedIfsc && (
        <Alert severity="info" data-testid="code-unknown">
          {t('code.lookedUpAs', { formats: formats.map((f) => formatText(f)).join(t('code.andAs')) })}
          {formats.length === 1 &&
            t('code.noneOf', { formats: ALL_FORMATS.map((f) => formatText(f, 'formatIn')).join('; ') })}
        </Alert>
      )}
      {near && <CodeNear code={code} near={near} />}
    </Stack>
  );
}
