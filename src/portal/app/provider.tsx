import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { createQueryClient } from '../lib/query-client';
// Initialises the interface languages before anything renders.
import '../lib/i18n';

const FOCUS_RING = { outline: '3px solid #ff8f00', outlineOffset: 2 };

const theme = createTheme({
  palette: { primary: { main: '#0d47a1' } },
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
