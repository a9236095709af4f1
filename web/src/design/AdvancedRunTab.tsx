import { useTranslation } from 'react-i18next';
import { isChannelError } from './advancedEdits';
import { AdvancedCatchment } from './AdvancedCatchment';
import { ChannelsScreen } from './ChannelsScreen';
import { useProject, useProjectActor, useRunView } from './ProjectProvider';
import type { AdvancedView } from './projectSteps';
import { RunResults } from './RunResults';

const VIEWS: AdvancedView[] = ['catchment', 'channels', 'results'];

/**
 * Advanced mode's design run tab (spec section 2): radio options catchment,
 * channels and results; results wait for a calculation, and the channels
 * option is marked red while the run's last calculation was refused for
 * one of its fields.
 */
export function AdvancedRunTab() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const runId = useProject((s) => s.context.selectedRunId);
  const chosen = useProject((s) => s.context.advancedView);
  const channelsError = useProject((s) => (runId ? isChannelError(s.context.calcErrors[runId]) : false));
  const view = useRunView(runId);
  const shown: AdvancedView = chosen === 'results' && !view.hasResults ? 'catchment' : chosen;
  const label = { catchment: t('advanced.viewCatchment'), channels: t('advanced.viewChannels'), results: t('advanced.viewResults') };

  return (
    <div className="advanced-run">
      <fieldset className="advanced-views">
        <legend className="visually-hidden">{t('advanced.views')}</legend>
        {VIEWS.map((which) => {
          const error = which === 'channels' && channelsError;
          return (
            <label key={which} className={`advanced-views__option${shown === which ? ' advanced-views__option--on' : ''}${error ? ' advanced-views__option--error' : ''}`}>
              <input
                type="radio"
                name="advanced-view"
                checked={shown === which}
                disabled={which === 'results' && !view.hasResults}
                aria-describedby={error ? 'advanced-views-error' : undefined}
                onChange={() => project.send({ type: 'ADVANCED.VIEW', view: which })}
              />
              {label[which]}
              {error && (
                <span id="advanced-views-error" className="advanced-views__error">
                  {' '}
                  <span aria-hidden="true">●</span>
                  <span className="visually-hidden">{t('advanced.channelsError')}</span>
                </span>
              )}
            </label>
          );
        })}
      </fieldset>
      {shown === 'catchment' && <AdvancedCatchment />}
      {shown === 'channels' && <ChannelsScreen />}
      {shown === 'results' && <RunResults />}
    </div>
  );
}
