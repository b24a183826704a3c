import type { FieldError } from 'react-hook-form';
import { translateRule } from './i18n';

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

/**
 * A registered field's error state and helper text: what is wrong with its value (by default the contract's rule
 * in the interface language), else `hint`.
 */
export const fieldHelp = (
  error: FieldError | undefined,
  hint: string,
  problem = (wrong: FieldError) => translateRule(wrong.message),
) => ({ error: Boolean(error), helperText: error ? problem(error) : hint });
