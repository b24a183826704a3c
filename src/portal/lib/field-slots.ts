/**
 * The slots of a search or code field registered with react-hook-form:
 * - its label shrinks whenever it holds a value, also one set from code (a URL, a browse click, a suggestion:
 *   react-hook-form writes those to the input directly, which MUI does not see, so "BARB" was drawn over its label);
 * - no auto-capitalisation, auto-correction or spell check: codes and names are typed as they are written.
 */
export const fieldSlots = (value: string | undefined) => ({
  inputLabel: { shrink: value ? true : undefined },
  htmlInput: { autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false },
});
