import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useSession } from '../app/ServicesContext';
import { Dialog } from '../components/Dialog';
import { LanguageSelect } from '../components/LanguageSelect';
import { useMessageText } from '../components/MessageText';
import { RAINFALL_UNIT_LABELS, RAINFALL_UNITS } from '../design/units';
import { CountrySelect } from '../screens/CountrySelect';
import { AccountDataSection } from './AccountDataSection';
import { ApiTokensSection } from './ApiTokensSection';
import { createSettingsMachine, settingsFrom, type SettingsField } from './settingsMachine';

/** The user settings dialog: language at once, the rest on Save. */
export function UserSettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const user = useSession((s) => s.context.user);
  const text = useMessageText();
  const [machine] = useState(() =>
    createSettingsMachine({
      updateSettings: (patch) => services.drainage.updateUserSettings(patch),
      updateCountry: async (country) => {
        const answer = await services.drainage.updateUserCountry(country);
        // Spec: a new country means a new list of drainage systems.
        void services.queryClient.invalidateQueries({ queryKey: ['products'] });
        return answer;
      },
      applyLanguage: (language) => {
        services.session.send({ type: 'USER.UPDATE', changes: { language } });
        services.drainage.updateUserSettings({ language }).catch((error: unknown) => console.error('saving the language failed', error));
      },
    }),
  );
  const projectUnits = services.workspace.current()?.getSnapshot().context.data?.rainfallUnits ?? null;
  const [snapshot, send, actorRef] = useMachine(machine, { input: settingsFrom(user!, projectUnits) });
  // The save's changes reach the session and the open project after the machine has finished (see SettingsSaved).
  useEffect(() => {
    const subscription = actorRef.subscribe({
      complete: () => {
        const { user: changes, projectUnits: units } = actorRef.getSnapshot().output!;
        services.session.send({ type: 'USER.UPDATE', changes });
        if (units) services.workspace.current()?.send({ type: 'PROJECT_UNITS', units });
        onClose();
      },
    });
    return () => subscription.unsubscribe();
  }, [actorRef, services, onClose]);
  // The server has ended the session and cleared its cookie: sign out here too (back to the start page).
  const accountDeleted = useCallback(() => {
    services.session.send({ type: 'LOGOUT' });
    onClose();
  }, [services, onClose]);
  const { values, error } = snapshot.context;
  const saving = snapshot.matches('saving');
  const change = (field: SettingsField) => (value: string | boolean) => send({ type: 'CHANGE', field, value });
  const input = (field: 'telephone' | 'address' | 'city' | 'postcode', type = 'text') => (
    <div className="field">
      <label htmlFor={`settings-${field}`}>{t(`signUp.${field}`)}</label>
      <input id={`settings-${field}`} type={type} value={values[field]} onChange={(event) => change(field)(event.target.value)} />
    </div>
  );

  return (
    <Dialog
      title={t('settings.title')}
      width={640}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button--primary" disabled={saving} onClick={() => send({ type: 'SAVE' })}>
            {saving ? t('signUp.submitting') : t('settings.save')}
          </button>
          <button type="button" className="button button--quiet" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      <form
        className="design-form__grid"
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: 'SAVE' });
        }}
      >
        <div className="field settings-language">
          <LanguageSelect id="settings-language" value={values.language} onChange={change('language')} labelled />
        </div>
        {user?.has_advanced_mode && (
          <fieldset className="field radio-group">
            <legend>{t('settings.defaultMode')}</legend>
            <label>
              <input type="radio" name="settings-mode" checked={!values.default_advanced_mode} onChange={() => change('default_advanced_mode')(false)} />
              {t('settings.standardMode')}
            </label>
            <label>
              <input type="radio" name="settings-mode" checked={values.default_advanced_mode} onChange={() => change('default_advanced_mode')(true)} />
              {t('settings.advancedMode')}
            </label>
          </fieldset>
        )}
        <div className="field">
          <label htmlFor="settings-units">{t('settings.userUnits')}</label>
          <select id="settings-units" value={values.rainfall_units} onChange={(event) => change('rainfall_units')(event.target.value)}>
            {RAINFALL_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {RAINFALL_UNIT_LABELS[unit]}
              </option>
            ))}
          </select>
        </div>
        {values.project_units !== null && (
          <div className="field">
            <label htmlFor="settings-project-units">{t('settings.projectUnits')}</label>
            <select id="settings-project-units" value={values.project_units} onChange={(event) => change('project_units')(event.target.value)}>
              {RAINFALL_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {RAINFALL_UNIT_LABELS[unit]}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="settings-company">{t('signUp.company')}</label>
          <input id="settings-company" value={user?.company ?? ''} readOnly aria-readonly="true" />
        </div>
        {input('telephone', 'tel')}
        {input('address')}
        {input('city')}
        {input('postcode')}
        {user?.can_change_country && <CountrySelect id="settings-country" label={t('signUp.country')} value={values.country} onChange={change('country')} />}
        <button type="submit" hidden />
      </form>
      {error && (
        <p className="notice notice--error" role="alert">
          {text(error)}
        </p>
      )}
      <ApiTokensSection />
      <AccountDataSection onDeleted={accountDeleted} />
    </Dialog>
  );
}
