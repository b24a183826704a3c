/** The correspondent id's field: six characters, shown upper case, never spell-checked or corrected. */
export const CORRESPONDENT_ID_INPUT = {
  htmlInput: {
    maxLength: 6,
    spellCheck: false,
    autoCorrect: 'off',
    autoCapitalize: 'characters',
    style: { textTransform: 'uppercase', fontFamily: 'monospace' },
  },
} as const;
