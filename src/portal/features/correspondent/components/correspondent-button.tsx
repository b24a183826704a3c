import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DialogActions from '@mui/material/DialogActions';
import BadgeIcon from '@mui/icons-material/Badge';
import { saveCorrespondentId } from '../../../lib/correspondent-id';
import { LazyCorrespondentForm as CorrespondentForm } from './lazy-correspondent-form';

/** The signed-in correspondent id in the app bar; a click changes it or signs out. */
export function CorrespondentButton({ correspondentId }: { correspondentId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<BadgeIcon />}
        onClick={() => setOpen(true)}
        aria-label={`Agent ${correspondentId}: change correspondent id`}
      >
        <span style={{ fontFamily: 'monospace' }}>{correspondentId}</span>
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="correspondent-dialog-title">
        <DialogTitle id="correspondent-dialog-title">Agent correspondent id</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <CorrespondentForm current={correspondentId} submitLabel="Save" onSaved={() => setOpen(false)} />
        </DialogContent>
        <DialogActions>
          <Button
            color="secondary"
            onClick={() => {
              saveCorrespondentId(null);
              setOpen(false);
            }}
          >
            Sign out
          </Button>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
