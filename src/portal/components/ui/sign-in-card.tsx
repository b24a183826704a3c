import type { FormEvent, ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** A sign-in, shown instead of the screens: its title, a line on what to give, then the form's fields. */
export function SignInCard({
  titleId,
  title,
  intro,
  onSubmit,
  describedBy,
  children,
}: {
  titleId: string;
  title: string;
  intro: string;
  onSubmit: (event: FormEvent) => unknown;
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <Paper component="section" aria-labelledby={titleId} sx={{ p: 3, maxWidth: 420, mx: 'auto', mt: 4 }}>
      <Typography id={titleId} component="h1" variant="h5" gutterBottom>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {intro}
      </Typography>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} aria-describedby={describedBy}>
        {children}
      </Stack>
    </Paper>
  );
}
