import type { Message } from '../forms/messages';
import { ApiError, NetworkError } from '../api/http';

// The server words its messages in English; those the designer meets on the
// design screen are shown in the interface language.
const KNOWN: { pattern: RegExp; key: string; values?: (match: RegExpExecArray) => Record<string, string> }[] = [
  { pattern: /^No channel could be designed to fulfil the current parameters\.?$/i, key: 'calc.noChannel' },
  { pattern: /^Drainage area is too large for the channel length\.?$/i, key: 'calc.areaTooLargeForLength' },
  { pattern: /^Controlled discharge needs the 5, 15 and 60 minute rainfall rates/i, key: 'calc.controlledNeedsRates' },
  { pattern: /^Please select a drainage system\.?$/i, key: 'calc.blocker.noSystem' },
  { pattern: /^Rainfall intensity must be above 0\.?$/i, key: 'calc.blocker.noRainfall' },
  { pattern: /^Please select a loading class\.?$/i, key: 'calc.blocker.noLoading' },
  { pattern: /^Please select a grating\.?$/i, key: 'calc.blocker.noGrating' },
  { pattern: /^Drainage area must be above 0\.?$/i, key: 'calc.blocker.noArea' },
  { pattern: /^Channel length must be above 0\.?$/i, key: 'calc.blocker.noLength' },
  { pattern: /^Stepped channels are not allowed for steel or concrete channels\.?$/i, key: 'warning.steppedSteelOrConcrete' },
  { pattern: /^The upper elevation is below the lower elevation/i, key: 'warning.uphill' },
  { pattern: /^The project needs a name\.?$/i, key: 'save.needsName' },
  { pattern: /^These runs need to be calculated before saving: (.+)$/i, key: 'save.runsToCalculate', values: (m) => ({ runs: m[1] ?? '' }) },
  { pattern: /^Only the owner can save over this project/i, key: 'save.onlyOwner' },
  { pattern: /^No runs in project!?$/i, key: 'load.noRuns' },
  { pattern: /^The project could not be loaded/i, key: 'load.notFound' },
  { pattern: /^Save the project before sharing it\.?$/i, key: 'share.saveFirst' },
  { pattern: /^Only a calculated run can be duplicated\.?$/i, key: 'runs.duplicateNeedsCalculation' },
  { pattern: /^The point is outside the United Kingdom\.?$/i, key: 'rainfall.outsideUk' },
  { pattern: /^The point is in the sea/i, key: 'rainfall.inSea' },
  { pattern: /^Advanced mode \(.*\) is not available for your account/i, key: 'calc.advancedNotAllowed' },
  { pattern: /^There are no trash boxes for the loading rating and channel type/i, key: 'advanced.noTrashBoxes' },
  { pattern: /^There are no end-cap outlets for the channel/i, key: 'advanced.noEndCaps' },
  { pattern: /^Please choose a trash box for the outflow\.?$/i, key: 'calc.blocker.chooseTrashBox' },
  { pattern: /^Please choose an end cap with outlet\.?$/i, key: 'calc.blocker.chooseEndCap' },
  { pattern: /^Please select a channel first\.?$/i, key: 'calc.blocker.noChannels' },
];

/** The server's sentence in the product's words, when it is one the design screen knows. */
export function serverMessage(text: string): Message {
  const trimmed = text.trim();
  for (const known of KNOWN) {
    const match = known.pattern.exec(trimmed);
    if (match) return known.values ? { key: known.key, values: known.values(match) } : { key: known.key };
  }
  return { text: trimmed };
}

/** What went wrong with a call, for the error dialog; `fallback` when the server said nothing readable. */
export function errorMessage(error: unknown, fallback: string): Message {
  if (error instanceof NetworkError) return { key: 'common.networkError' };
  if (error instanceof ApiError) {
    if (error.status >= 500) return { key: 'common.serverError' };
    const body = error.body;
    const text =
      typeof body === 'string'
        ? body
        : typeof body === 'object' && body !== null
          ? ((body as { error?: unknown; detail?: unknown }).error ?? (body as { detail?: unknown }).detail)
          : undefined;
    if (typeof text === 'string' && text.trim() !== '') return serverMessage(text);
  }
  return { key: fallback };
}
