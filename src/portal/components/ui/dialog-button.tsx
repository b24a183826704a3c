import { Suspense, type ReactNode } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';

/**
 * A small button that opens a dialog over the screen: `dialog` is drawn while `open`, and may be a lazy chunk (it
 * is fetched on the first opening; nothing is drawn until it lands).
 */
export function DialogButton({
  open,
  onOpen,
  dialog,
  ...button
}: Omit<ButtonProps, 'onClick'> & { open: boolean; onOpen: () => void; dialog: ReactNode }) {
  return (
    <>
      <Button size="small" onClick={onOpen} sx={{ whiteSpace: 'nowrap' }} {...button} />
      {open && <Suspense fallback={null}>{dialog}</Suspense>}
    </>
  );
}
