import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A section of a desk page, named by its heading (`id` is the heading's); `outlined`, in a box of its own. */
export function OpsSection({
  id,
  title,
  spacing = 2,
  outlined = false,
  testId,
  children,
}: {
  id: string;
  title: string;
  spacing?: number;
  outlined?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  const content = (
    <>
      <Typography id={id} component="h2" variant="h6">
        {title}
      </Typography>
      {children}
    </>
  );
  if (outlined)
    return (
      <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2 }} data-testid={testId}>
        <Stack spacing={spacing}>{content}</Stack>
      </Paper>
    );
  return (
    <Stack spacing={spacing} component="section" aria-labelledby={id} data-testid={testId}>
      {content}
    </Stack>
  );
}
