import { assign, fromPromise, setup } from 'xstate';
import type { User, UserSettingsPatch } from '../api/types';
import type { Message } from '../forms/messages';
import { errorMessage } from '../design/serverMessages';
import { toRainfallUnit, type RainfallUnit } from '../design/units';

export interface SettingsValues {
  language: string;
  default_advanced_mode: boolean;
  rainfall_units: RainfallUnit;
  /** The open project's unit; null when no project is open. */
  project_units: RainfallUnit | null;
  telephone: string;
  address: string;
  city: string;
  postcode: string;
  country: string;
}

export type SettingsField = keyof SettingsValues;

export interface SettingsDeps {
  updateSettings: (patch: UserSettingsPatch) => Promise<{ user: User } | null>;
  updateCountry: (country: string) => Promise<{ user: User } | null>;
  /** Applies and stores a newly chosen language at once. */
  applyLanguage: (language: string) => void;
}

/**
 * What a save changed, the machine's output: the user's new fields, and
 * the unit the open project takes (null: unchanged). The dialog hands them
 * to the session and the project once the machine has finished, never
 * from inside one of its actions: an action that makes another actor
 * transition runs that actor's dynamic actions under this machine's, which
 * XState v5 warns about (enqueued assign() inside a custom action).
 */
export interface SettingsSaved {
  user: Partial<User>;
  projectUnits: RainfallUnit | null;
}

interface Context {
  initial: SettingsValues;
  values: SettingsValues;
  error: Message | null;
  saved: SettingsSaved | null;
}

export function settingsFrom(user: User, projectUnits: string | null): SettingsValues {
  return {
    language: user.language,
    default_advanced_mode: user.default_advanced_mode === true,
    rainfall_units: toRainfallUnit(user.rainfall_units),
    project_units: projectUnits === null ? null : toRainfallUnit(projectUnits),
    telephone: user.telephone ?? '',
    address: user.address ?? '',
    city: user.city ?? '',
    postcode: user.postcode ?? '',
    country: user.country?.iso_code ?? '',
  };
}

/** The fields of the settings PATCH that changed; the language is saved as soon as it is chosen. */
export function settingsPatch(initial: SettingsValues, values: SettingsValues): UserSettingsPatch {
  const patch: UserSettingsPatch = {};
  if (values.default_advanced_mode !== initial.default_advanced_mode) patch.default_advanced_mode = values.default_advanced_mode;
  if (values.rainfall_units !== initial.rainfall_units) patch.rainfall_units = values.rainfall_units;
  for (const field of ['telephone', 'address', 'city', 'postcode'] as const) {
    if (values[field] !== initial[field]) patch[field] = values[field];
  }
  return patch;
}

/** The user settings dialog (spec: user settings). */
export function createSettingsMachine(deps: SettingsDeps) {
  return setup({
    types: {
      context: {} as Context,
      input: {} as SettingsValues,
      events: {} as { type: 'CHANGE'; field: SettingsField; value: string | boolean } | { type: 'SAVE' },
      output: {} as SettingsSaved,
    },
    actors: {
      save: fromPromise<Partial<User>, { initial: SettingsValues; values: SettingsValues }>(async ({ input }) => {
        let user: Partial<User> = {};
        const patch = settingsPatch(input.initial, input.values);
        if (Object.keys(patch).length > 0) user = { ...user, ...((await deps.updateSettings(patch))?.user ?? patch) };
        if (input.values.country && input.values.country !== input.initial.country) {
          user = { ...user, ...((await deps.updateCountry(input.values.country))?.user ?? {}) };
        }
        return user;
      }),
    },
  }).createMachine({
    id: 'settings',
    context: ({ input }) => ({ initial: input, values: input, error: null, saved: null }),
    initial: 'editing',
    states: {
      editing: {
        on: {
          CHANGE: {
            actions: [
              assign({
                values: ({ context, event }) => {
                  const values = { ...context.values, [event.field]: event.value } as SettingsValues;
                  // Spec: changing the user's rainfall unit also sets the project's.
                  if (event.field === 'rainfall_units' && values.project_units !== null) values.project_units = values.rainfall_units;
                  return values;
                },
              }),
              ({ event }) => {
                if (event.field === 'language' && typeof event.value === 'string') deps.applyLanguage(event.value);
              },
            ],
          },
          SAVE: 'saving',
        },
      },
      saving: {
        entry: assign({ error: null }),
        invoke: {
          src: 'save',
          input: ({ context }) => ({ initial: context.initial, values: context.values }),
          onDone: {
            target: 'saved',
            actions: assign({
              saved: ({ context, event }) => ({
                user: event.output,
                projectUnits: context.values.project_units !== context.initial.project_units ? context.values.project_units : null,
              }),
            }),
          },
          onError: {
            target: 'editing',
            actions: assign({ error: ({ event }) => errorMessage(event.error, 'settings.failed') }),
          },
        },
      },
      saved: { type: 'final' },
    },
    output: ({ context }) => context.saved ?? { user: {}, projectUnits: null },
  });
}
