import './catchment.css';
import { useTranslation } from 'react-i18next';
import { useProject, useProjectActor } from '../design/ProjectProvider';
import type { ProjectData } from '../design/projectModel';
import type { EffectiveInputs } from '../design/runRules';
import { displayRunName } from '../design/runNames';
import { feedersOf, linksOf, trashBoxTargets } from './chains';
import { dischargeChoice, type DischargeChoice } from './edits';
import { linkedRuns } from './shared';

/** The runs whose trash box the run's outflow may go into (spec section 4): both calculated, no circular chain. */
export function eligibleTargets(data: ProjectData, runId: string): string[] {
  return trashBoxTargets(linkedRuns(data), runId, (id) => !!data.runs[id]?.results?.calculated);
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

interface TrashBoxRunPickerProps {
  runId: string;
  /** The run whose trash box is chosen now, if any. */
  value: string | null;
  onChange: (runId: string | null) => void;
  id?: string;
  disabled?: boolean;
}

/**
 * The choice of another run's trash box for a run's outflow. The list holds
 * the eligible runs and the one chosen now. For the advanced channels
 * screen too: it stores nothing itself, `onChange` does.
 */
export function TrashBoxRunPicker({ runId, value, onChange, id = 'run-trashbox-run', disabled }: TrashBoxRunPickerProps) {
  const { t } = useTranslation();
  const eligible = useProject((s) => (s.context.data ? eligibleTargets(s.context.data, runId) : []), sameList);
  const names = useProject((s) => Object.fromEntries((s.context.data?.order ?? []).map((rid) => [rid, s.context.data!.runs[rid]?.name ?? ''])), sameNames);
  const options = value && !eligible.includes(value) ? [value, ...eligible] : eligible;
  return (
    <div className="field">
      <label htmlFor={id}>{t('discharge.targetRun')}</label>
      <select id={id} value={value ?? ''} disabled={disabled || options.length === 0} onChange={(event) => onChange(event.target.value || null)}>
        <option value="" disabled>
          {options.length === 0 ? t('discharge.noTargets') : t('discharge.chooseRun')}
        </option>
        {options.map((rid) => (
          <option key={rid} value={rid}>
            {displayRunName(t, names[rid] ?? rid)}
          </option>
        ))}
      </select>
      {options.length === 0 && <p className="field__hint">{t('discharge.noTargetsHint')}</p>}
    </div>
  );
}

const sameNames = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Standard mode's discharge (where the discharge setting goes): free outflow,
 * the run's own trash box (the server chooses it), or another run's trash
 * box through the run picker. Also says which runs flow into this one.
 */
export function DischargeField({ runId, run }: { runId: string; run: EffectiveInputs }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const ids = useProject((s) => (s.context.data?.order ?? []).join('\n'));
  const feeders = useProject((s) => (s.context.data ? feedersOf(linksOf(linkedRuns(s.context.data)), runId) : []), sameList);
  const names = useProject((s) => feeders.map((rid) => displayRunName(t, s.context.data?.runs[rid]?.name ?? rid)).join(', '));
  const choice = dischargeChoice(run, new Set(ids.split('\n')));
  const edit = (value: DischargeChoice) => project.send({ type: 'EDIT', field: 'discharge', value });
  const [first] = useProject((s) => (s.context.data ? eligibleTargets(s.context.data, runId) : []), sameList);
  return (
    <fieldset className="field radio-group discharge-field">
      <legend>{t('discharge.title')}</legend>
      <label>
        <input type="radio" name="run-discharge" checked={choice.kind === 'free'} onChange={() => edit({ kind: 'free' })} />
        {t('discharge.free')}
      </label>
      <label>
        <input type="radio" name="run-discharge" checked={choice.kind === 'ownTrashBox'} onChange={() => edit({ kind: 'ownTrashBox' })} />
        {t('discharge.ownTrashBox')}
      </label>
      <label>
        <input
          type="radio"
          name="run-discharge"
          checked={choice.kind === 'runTrashBox'}
          disabled={choice.kind !== 'runTrashBox' && !first}
          onChange={() => first && edit({ kind: 'runTrashBox', runId: first })}
        />
        {t('discharge.runTrashBox')}
      </label>
      {choice.kind === 'runTrashBox' ? (
        <TrashBoxRunPicker runId={runId} value={choice.runId} onChange={(target) => edit(target ? { kind: 'runTrashBox', runId: target } : { kind: 'free' })} />
      ) : (
        !first && <p className="field__hint">{t('discharge.noTargetsHint')}</p>
      )}
      {feeders.length > 0 && <p className="field__hint">{t('discharge.fedBy', { runs: names })}</p>}
    </fieldset>
  );
}
