import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BANK_CODE_FORMATS, type CodeFormat, type CodeLookupResponse, type CodeMatch, type PayingHeadOffice } from '../../../../contract';
import { CopyableCode } from '../../../components/ui/copy-button';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n';
import { agentSearchLink, branchFinderLink } from '../../../lib/links';

// What a code names (GET /v1/codes/{code}): each match with its country and bank, and for a branch or a bank
// the head offices that can pay into it for delivery mode 04, each a link to the branch finder filled in.

const KIND_LABELS = { branch: 'Bank branch', bank: 'Bank', agent: 'Agent location' } as const;

const formatText = (format: CodeFormat, countryName: (code: string) => string) =>
  format.receivingCountry ? `${format.description} of ${countryName(format.receivingCountry)}` : format.description;

/** Every format of the country profiles, for a code that fits none of them. */
const ALL_FORMATS = Object.entries(BANK_CODE_FORMATS).flatMap(([country, f]) => [
  ...(f.branchDescription ? [`${f.branchDescription} (${country})`] : []),
  `${f.bankDescription} (${country})`,
]);

function HeadOffices({ match, offices }: { match: CodeMatch; offices: PayingHeadOffice[] }) {
  if (offices.length === 0)
    return <Typography variant="body2">No head office of {match.receivingCountryName} pays into {match.bankName} for delivery mode 04.</Typography>;
  return (
    <Box>
      <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
        Head offices that can pay into {match.kind === 'branch' ? 'this branch' : match.bankName} (delivery mode 04)
      </Typography>
      <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
        {offices.map((office) => (
          <li key={office.receivingAgentHeadOfficeCode}>
            <Link
              component={RouterLink}
              to={branchFinderLink({ receivingCountry: match.receivingCountry, receivingAgentHeadOfficeCode: office.receivingAgentHeadOfficeCode, bankCode: match.kind === 'branch' ? (match.branch?.routingNumber ?? undefined) : (match.bankCode ?? undefined) })}
            >
              {office.headOfficeName} ({office.receivingAgentHeadOfficeCode})
            </Link>
            {' — open the branch finder'}
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

function Match({ match }: { match: CodeMatch }) {
  const { branch, agent } = match;
  return (
    <Paper variant="outlined" component="article" aria-label={`${KIND_LABELS[match.kind]} in ${match.receivingCountryName}`} sx={{ p: 2 }} data-testid="code-match">
      <Stack spacing={1}>
        <Typography component="h2" variant="h6">
          {KIND_LABELS[match.kind]} · {match.receivingCountryName} ({match.receivingCountry})
        </Typography>
        {match.bankName && (
          <Typography>
            Bank: {match.bankName} <CopyableCode value={match.bankCode} label="bank code" />
          </Typography>
        )}
        {branch && (
          <>
            <Typography>
              Branch: <strong>{branch.branchName}</strong> <CopyableCode value={branch.routingNumber} label="routing number" />
            </Typography>
            <Typography variant="body2">{[branch.branchLocation, branch.address].filter(Boolean).join(' · ')}</Typography>
            <Typography variant="body2">{[branch.city, branch.district, branch.stateName].filter(Boolean).join(', ')}</Typography>
          </>
        )}
        {match.kind === 'bank' && match.branchCount !== null && <BranchCount count={match.branchCount} />}
        {agent && (
          <>
            <Typography>
              Agent: <strong>{agent.agentName}</strong> <CopyableCode value={agent.agentCode} label="agent code" />
            </Typography>
            <Typography variant="body2">
              Head office: {agent.headOfficeName} ({agent.receivingAgentHeadOfficeCode}) · delivery modes {agent.deliveryModes.join(', ')}
            </Typography>
            <Typography variant="body2">{[agent.addressLine1, agent.addressLine2, agent.city, agent.stateName, agent.phoneNumber].filter(Boolean).join(' · ')}</Typography>
            <Link component={RouterLink} to={agentSearchLink({ receivingCountry: agent.receivingCountry, deliveryMode: agent.deliveryModes[0], search: agent.agentName })}>
              Open {agent.agentName} in the agent search
            </Link>
          </>
        )}
        {match.kind !== 'agent' && <HeadOffices match={match} offices={match.headOffices} />}
      </Stack>
    </Paper>
  );
}

export function CodeMatches({ answer, countryName }: { answer: CodeLookupResponse; countryName: (code: string) => string }) {
  const { t } = useTranslation();
  const { code, data, formats, issuedIfsc } = answer;
  const tried = formats.map((f) => formatText(f, countryName));
  return (
    <Stack spacing={2}>
      <Typography role="status" data-testid="result-total">
        {data.length === 0 ? t('code.none', { code }) : t('code.matches', { count: data.length, formatted: formatNumber(data.length), code })}
      </Typography>
      {data.map((match, i) => (
        <Match key={`${match.kind}:${match.receivingCountry}:${i}`} match={match} />
      ))}
      {issuedIfsc && (
        <Alert severity="info" data-testid="issued-ifsc">
          <strong>{issuedIfsc.ifsc}</strong> is a real IFSC of <strong>{issuedIfsc.bankName ?? issuedIfsc.bankCode}</strong> ({issuedIfsc.bankCode}), on the RBI&apos;s
          list, but its branch is not in the served data set.{' '}
          {issuedIfsc.headOffices.length
            ? `Head offices that pay into ${issuedIfsc.bankName ?? issuedIfsc.bankCode} for delivery mode 04: ${issuedIfsc.headOffices.map((h) => `${h.headOfficeName} (${h.receivingAgentHeadOfficeCode})`).join(', ')}.`
            : `No head office pays into ${issuedIfsc.bankName ?? issuedIfsc.bankCode} for delivery mode 04.`}
        </Alert>
      )}
      {data.length === 0 && !issuedIfsc && (
        <Alert severity="info" data-testid="code-unknown">
          Looked up as {tried.join(' and as ')}: no match.
          {formats.length === 1 && ` It is none of: ${ALL_FORMATS.join('; ')}.`}
        </Alert>
      )}
    </Stack>
  );
}
