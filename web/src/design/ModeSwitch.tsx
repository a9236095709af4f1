import { useTranslation } from 'react-i18next';
import { isAdvanced } from './advancedRules';
import { useProject, useProjectActor, useRunView } from './ProjectProvider';
import { useAdvancedMode } from './useAdvancedMode';

/**
 * The standard/advanced switch of the project column (spec section 2): for
 * users with advanced mode only, showing the selected run's mode (the
 * user's default until the run says), locked once the run has an advanced
 * calculation (a reset frees it).
 */
export function ModeSwitch() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const mode = useAdvancedMode();
  const runId = useProject((s) => s.context.selectedRunId);
  const inputs = useProject((s) => (runId ? s.context.data?.runs[runId]?.inputs : undefined));
  const calculatedAdvanced = useProject((s) => (runId ? s.context.data?.runs[runId]?.results?.advanced === true : false));
  const view = useRunView(runId);
  if (!mode.allowed || !inputs) return null;
  const advanced = isAdvanced(inputs, mode);
  const locked = calculatedAdvanced || view.calculating;

  return (
    <fieldset className="mode-switch" disabled={locked} aria-describedby={locked ? 'mode-switch-locked' : undefined}>
      <legend className="mode-switch__legend">{t('mode.label')}</legend>
      <div className="mode-switch__options">
        <label className={advanced ? 'mode-switch__option' : 'mode-switch__option mode-switch__option--on'}>
          <input type="radio" name="design-mode" checked={!advanced} onChange={() => project.send({ type: 'MODE', advanced: false })} />
          {t('mode.standard')}
        </label>
        <label className={advanced ? 'mode-switch__option mode-switch__option--on' : 'mode-switch__option'}>
          <input type="radio" name="design-mode" checked={advanced} onChange={() => project.send({ type: 'MODE', advanced: true })} />
          {t('mode.advanced')}
        </label>
      </div>
      {locked && !view.calculating && (
        <p id="mode-switch-locked" className="mode-switch__hint">
          {t('mode.locked')}
        </p>
      )}
    </fieldset>
  );
}
