import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { createQueryClient } from '../lib/query-client';
// Initialises the interface languages before anything renders.
import '../lib/i18n';

const FOCUS_RING = { outline: '3px solid #ff8f00', outlineOffset: 2 };

const theme = createTheme({
  // Warning and info darker than MUI's defaults (#ed6c02: 3.1:1, #0288d1: 3.9:1 under white text): a filled chip
  // (the desk's change states, the difference's "changed") must reach 4.5:1, as axe checks.
  palette: { primary: { main: '#0d47a1' }, warning: { main: '#b45309' }, info: { main: '#0277bd' } },
  components: {
    // A focus ring everyone can see, for keyboard-only tellers (MUI's ripple alone is too faint).
    MuiCssBaseline: { styleOverrides: { ':focus-visible': FOCUS_RING } },
    // Buttons, tabs, icon buttons and menu items reset outline in their own class; draw it back there.
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
  },
});

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ThemeProvider>
  );
}
