import { createTheme } from '@mui/material/styles';

const FOCUS_RING = { outline: '3px solid #ff8f00', outlineOffset: 2 };

/** A finger's target: WCAG 2.5.5's 44 × 44 CSS px. */
const TOUCH = 44;

const base = createTheme({
  // Warning and info darker than MUI's defaults (#ed6c02: 3.1:1, #0288d1: 3.9:1 under white text): a filled chip
  // (the desk's change states, the difference's "changed") must reach 4.5:1, as axe checks.
  palette: { primary: { main: '#0d47a1' }, warning: { main: '#b45309' }, info: { main: '#0277bd' } },
});

/** Under 600 px (a phone): every control a finger can hit, every label whole. Wider screens keep MUI's sizes. */
const phone = base.breakpoints.down('sm');

export const theme = createTheme(base, {
  components: {
    // A focus ring everyone can see, for keyboard-only tellers (MUI's ripple alone is too faint).
    MuiCssBaseline: { styleOverrides: { ':focus-visible': FOCUS_RING } },
    // Buttons, tabs, icon buttons and menu items reset outline in their own class; draw it back there.
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
    MuiButton: {
      styleOverrides: {
        // A long label wraps inside its button instead of spilling out of it.
        root: { [phone]: { minHeight: TOUCH, minWidth: TOUCH, whiteSpace: 'normal', overflowWrap: 'anywhere' } },
      },
    },
    MuiIconButton: { styleOverrides: { root: { [phone]: { minWidth: TOUCH, minHeight: TOUCH } } } },
    MuiTab: { styleOverrides: { root: { [phone]: { minHeight: TOUCH, minWidth: TOUCH } } } },
    MuiTabs: { styleOverrides: { root: { [phone]: { minHeight: TOUCH } } } },
    MuiCheckbox: { styleOverrides: { root: { [phone]: { padding: 10 } } } },
    MuiRadio: { styleOverrides: { root: { [phone]: { padding: 10 } } } },
    MuiSwitch: { styleOverrides: { switchBase: { [phone]: { padding: 12 } } } },
    // A link in a result card is a target of its own, not a word in a sentence.
    MuiLink: {
      styleOverrides: {
        root: { [phone]: { display: 'inline-flex', alignItems: 'center', minHeight: TOUCH, minWidth: TOUCH } },
      },
    },
    // Text fields, selects and combo boxes: the small size is 40 px high, 44 on a phone.
    MuiOutlinedInput: {
      styleOverrides: {
        root: { [phone]: { minHeight: TOUCH } },
        inputSizeSmall: { [phone]: { paddingTop: 10.5, paddingBottom: 10.5 } },
      },
    },
    MuiInputLabel: {
      styleOverrides: {
        root: {
          [phone]: {
            '&.MuiInputLabel-sizeSmall:not(.MuiInputLabel-shrink)': { transform: 'translate(14px, 11px) scale(1)' },
          },
        },
      },
    },
    // A chosen option longer than its box wraps to a second line rather than ending in "…".
    MuiSelect: {
      styleOverrides: {
        select: { [phone]: { '&.MuiInputBase-input': { whiteSpace: 'normal', overflowWrap: 'anywhere' } } },
      },
    },
    MuiAutocomplete: {
      styleOverrides: {
        root: {
          [phone]: {
            '& .MuiOutlinedInput-root.MuiInputBase-sizeSmall': { paddingTop: 4, paddingBottom: 4 },
            '&.MuiAutocomplete-hasPopupIcon .MuiOutlinedInput-root, &.MuiAutocomplete-hasClearIcon .MuiOutlinedInput-root':
              { paddingRight: TOUCH + 6 },
            '&.MuiAutocomplete-hasPopupIcon.MuiAutocomplete-hasClearIcon .MuiOutlinedInput-root': {
              paddingRight: 2 * TOUCH + 6,
            },
            '& .MuiOutlinedInput-root .MuiAutocomplete-endAdornment': { right: 2 },
          },
        },
        clearIndicator: { [phone]: { marginRight: 0 } },
        popupIndicator: { [phone]: { marginRight: 0 } },
      },
    },
    // The rows-per-page choice and the page buttons under the results.
    MuiTablePagination: {
      styleOverrides: {
        input: { [phone]: { minHeight: TOUCH, minWidth: TOUCH + 16 } },
        select: { [phone]: { '&.MuiInputBase-input': { paddingTop: 12, paddingBottom: 12 } } },
      },
    },
  },
});
