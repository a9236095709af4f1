import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '../components/MessageText';
import { NumberField } from '../components/NumberField';
import { useNumberFormat } from '../results/format';
import { advancedSystems, type AdvancedEdit } from './advancedEdits';
import {
  channelUses,
  concreteOf,
  concreteProblem,
  countProblem,
  cuttingOf,
  cuttingProblem,
  dischargeOf,
  dischargeOptions,
  drillDiameters,
  drillDistanceRange,
  drillingOf,
  drillingProblem,
  familyOf,
  gratingsOfType,
  hasLChannel,
  kstOf,
  laidLengthMM,
  lastElementLengthMM,
  lastUse,
  targetLengthMM,
  togglesOnce,
  DISCHARGE_CUTTING,
  DISCHARGE_SETTINGS,
  DRILL_POSITIONS,
  HEAD_CUTTING,
  KST,
  ROUGHNESS,
  type ChannelOption,
  type ChannelUse,
  type Cutting,
  type DischargeSetting,
} from './advancedRules';
import { gratingName, systemName } from './catalogueText';
import { useProject, useProjectActor } from './ProjectProvider';
import { RunPreview } from './RunPreview';
import { gratingsFor, loadingLabel, needsGrating, needsLoading } from './runRules';
import type { DrainageSystem, RunInputs } from './types';
import { useChannelOptions, useChannelTypes, useEndCaps, useTrashBoxes } from './useAdvancedMode';
import { useProducts } from './useProducts';

type Send = (edit: AdvancedEdit) => void;

/**
 * Advanced mode's channels screen (spec section 2): the system, loading,
 * channel type and grating; the channels picked by hand; the run drawn to
 * scale with its cuttings; the discharge; or the in-situ concrete
 * channel's section. Every input is an edit of the run (ADVANCED.EDIT);
 * the server's refusal of a calculation shows beside its field.
 */
export function ChannelsScreen() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const runId = useProject((s) => s.context.selectedRunId);
  const inputs = useProject((s) => (runId ? s.context.data?.runs[runId]?.inputs : undefined));
  const calcError = useProject((s) => (runId ? s.context.calcErrors[runId] : undefined));
  const message = useMessageText();
  const products = useProducts();
  const system = inputs?.selectedSystem ?? null;
  const concrete = system?.product_type === 'M';
  const typed = !!system && !concrete && system.product_type !== 'C';
  const type = typeof inputs?.selectedChannelType === 'string' ? inputs.selectedChannelType : '';
  const loading = inputs?.loading || undefined;
  const types = useChannelTypes(system?.slug, loading, typed);
  const options = useChannelOptions(
    { product: system?.slug, loading, subProduct: typed ? type : undefined, noBuiltInFall: inputs?.noBuiltInFall === true },
    !!system && !concrete && (!typed || type !== ''),
  );
  if (!inputs) return null;

  const send: Send = (edit) => project.send({ type: 'ADVANCED.EDIT', edit });
  const errorOf = (...fields: string[]) => (calcError && fields.includes(calcError.field) ? message(calcError.message) : null);
  const systems = advancedSystems(products.data ?? []);
  const gratings = gratingsOfType(gratingsFor(system, inputs.loading), type);
  const typeList = Object.keys(types.data ?? {}).sort((a, b) => typeOrder(a) - typeOrder(b));

  return (
    <form className="channels-screen" aria-label={t('advanced.title')} onSubmit={(event) => event.preventDefault()} noValidate>
      <fieldset className="design-form__group">
        <legend>{t('form.systemSection')}</legend>
        <div className="design-form__grid">
          <div className={errorOf('channel_group') ? 'field field--wide field--invalid' : 'field field--wide'}>
            <label htmlFor="adv-system">{t('advanced.system')}</label>
            <select
              id="adv-system"
              value={system?.slug ?? ''}
              aria-busy={products.isPending || undefined}
              onChange={(event) => {
                const chosen = systems.find((option) => option.slug === event.target.value);
                if (chosen) send({ kind: 'system', system: chosen });
              }}
            >
              <option value="" disabled>
                {products.isPending ? t('form.systemsLoading') : t('form.systemPlaceholder')}
              </option>
              {systems.map((option) => (
                <option key={option.slug} value={option.slug}>
                  {systemName(t, option)} ({option.range})
                </option>
              ))}
            </select>
            <FieldError text={errorOf('channel_group')} />
          </div>
          {needsLoading(system) && (
            <div className={errorOf('loading') ? 'field field--invalid' : 'field'}>
              <label htmlFor="adv-loading">{t('form.loading')}</label>
              <select id="adv-loading" value={inputs.loading ?? ''} onChange={(event) => send({ kind: 'loading', loading: event.target.value })}>
                {system!.loading_classes.map((option) => (
                  <option key={option} value={option}>
                    {loadingLabel(option)}
                  </option>
                ))}
              </select>
              <FieldError text={errorOf('loading')} />
            </div>
          )}
          {typed && (
            <div className="field">
              <label htmlFor="adv-type">{t('advanced.channelType')}</label>
              <select id="adv-type" value={type} aria-busy={types.isPending || undefined} onChange={(event) => send({ kind: 'channelType', type: event.target.value })}>
                <option value="" disabled>
                  {t('advanced.channelTypePlaceholder')}
                </option>
                {typeList.map((option) => (
                  <option key={option} value={option}>
                    {typeLabel(t, option)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {needsGrating(system) && (
            <div className={inputs.grating && !errorOf('grating') ? 'field' : 'field field--invalid'}>
              <label htmlFor="adv-grating">{t('form.grating')}</label>
              <select id="adv-grating" value={inputs.grating ?? ''} onChange={(event) => send({ kind: 'grating', grating: event.target.value })}>
                <option value="" disabled>
                  {t('form.gratingPlaceholder')}
                </option>
                {gratings.map((grating) => (
                  <option key={grating.slug} value={grating.slug}>
                    {gratingName(t, grating)}
                  </option>
                ))}
              </select>
              <FieldError text={errorOf('grating')} />
            </div>
          )}
          {system && !concrete && (
            <div className="field field--switch">
              <label>
                <input type="checkbox" checked={inputs.noBuiltInFall === true} onChange={(event) => send({ kind: 'noBuiltInFall', on: event.target.checked })} />
                {t('advanced.noBuiltInFall')}
              </label>
            </div>
          )}
        </div>
      </fieldset>

      {!system ? (
        <p className="muted">{t('calc.blocker.noSystem')}</p>
      ) : concrete ? (
        <>
          <ConcreteFields inputs={inputs} send={send} error={errorOf('concreteChannel')} />
          <DischargePart inputs={inputs} system={system} uses={[]} setting={dischargeOf(inputs)} send={send} errorOf={errorOf} />
        </>
      ) : (
        <ChannelsPart inputs={inputs} system={system} options={options.data ?? null} loadingList={options.isPending && options.fetchStatus !== 'idle'} failed={options.isError} typeChosen={!typed || type !== ''} send={send} errorOf={errorOf} />
      )}
    </form>
  );
}

/** The fibre range's types (10xxx standard, 8xxx ks) by width, then family; the others by width. */
const typeOrder = (type: string) => {
  const family = familyOf(type);
  const width = Number(family ? type.slice(family === 'standard' ? 2 : 1) : type);
  return width * 10 + (family === 'ks' ? 1 : 0);
};

function typeLabel(t: TFunction, type: string): string {
  const family = familyOf(type);
  if (family === 'standard') return t('advanced.typeStandard', { width: type.slice(2) });
  if (family === 'ks') return t('advanced.typeKs', { width: type.slice(1) });
  return /^\d+$/.test(type) ? t('advanced.typeWidth', { width: type }) : type;
}

function FieldError({ text, id }: { text: string | null; id?: string }) {
  if (!text) return null;
  return (
    <p className="field-errors" id={id} role="alert">
      {text}
    </p>
  );
}

interface ChannelsPartProps {
  inputs: RunInputs;
  system: DrainageSystem;
  options: ChannelOption[] | null;
  loadingList: boolean;
  failed: boolean;
  typeChosen: boolean;
  send: Send;
  errorOf: (...fields: string[]) => string | null;
}

function ChannelsPart({ inputs, system, options, loadingList, failed, typeChosen, send, errorOf }: ChannelsPartProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [editing, setEditing] = useState<'head' | 'discharge' | null>(null);
  const uses = channelUses(inputs);
  const head = cuttingOf(inputs.headCutting);
  const discharge = cuttingOf(inputs.dischargeCutting);
  const laid = laidLengthMM(uses, head, discharge);
  const target = targetLengthMM(inputs);
  const setting = dischargeOf(inputs);
  const last = lastUse(uses);
  const lChannel = hasLChannel(uses);
  const trashBoxMM = system.slug === 'super' && last && last.width_mm >= 400 ? 1000 : 500;
  const list = options ?? [];
  // Channels of the run the list does not show stay visible, so that their counts can be taken back.
  const shown: (ChannelOption | ChannelUse)[] = [...list, ...uses.filter((use) => !list.some((option) => option.slug === use.slug))];
  const countOf = (slug: string) => uses.find((use) => use.slug === slug)?.count ?? 0;
  const channelsError = errorOf('channels', 'stepped');

  return (
    <>
      <section className="panel channels-screen__lengths" aria-labelledby="adv-lengths">
        <h3 id="adv-lengths" className="visually-hidden">
          {t('advanced.lengths')}
        </h3>
        <dl className="channels-screen__length-list">
          <div>
            <dt>{t('advanced.targetLength')}</dt>
            <dd>{target > 0 ? `${format(target / 1000, 3)} m` : '–'}</dd>
          </div>
          <div className={uses.length > 0 && laid !== target ? 'channels-screen__length--differs' : undefined}>
            <dt>{t('advanced.laidLength')}</dt>
            <dd>
              {`${format(laid / 1000, 3)} m`}
              {uses.length > 0 && laid !== target && (
                <span className="channels-screen__flag" role="status">
                  {' ⚠ '}
                  {t('advanced.lengthsDiffer', { laid: format(laid / 1000, 3), target: format(target / 1000, 3) })}
                </span>
              )}
            </dd>
          </div>
        </dl>
      </section>

      <section className="panel" aria-labelledby="adv-table-title">
        <h3 id="adv-table-title">{t('advanced.table')}</h3>
        {!typeChosen ? (
          <p className="muted">{t('advanced.chooseType')}</p>
        ) : loadingList ? (
          <p className="muted">{t('advanced.channelsLoading')}</p>
        ) : failed ? (
          <p className="field-errors">{t('advanced.channelsFailed')}</p>
        ) : shown.length === 0 ? (
          <p className="muted">{t('advanced.noChannels')}</p>
        ) : (
          <div className="channel-table__scroll">
            <table className="channel-table" aria-describedby={channelsError ? 'adv-channels-error' : undefined}>
              <thead>
                <tr>
                  <th scope="col">{t('advanced.colType')}</th>
                  <th scope="col" className="channel-table__number">
                    {t('advanced.colLength')}
                  </th>
                  <th scope="col" className="channel-table__number">
                    {t('advanced.colHeight')}
                  </th>
                  <th scope="col" className="channel-table__number">
                    {t('advanced.colCount')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((channel) => {
                  const range = 'height_range' in channel ? channel.height_range : null;
                  return (
                    <tr key={channel.slug} className={countOf(channel.slug) > 0 ? 'channel-table__row--used' : undefined}>
                      <th scope="row">
                        {channel.name}
                        {channel.kind === 'l' && <span className="channel-table__note">{t('advanced.lChannel')}</span>}
                      </th>
                      <td className="channel-table__number">{format(channel.channel_length_mm, 0)}</td>
                      <td className="channel-table__number">{range ? t('advanced.heightRange', { min: range.min_mm, max: range.max_mm }) : format(channel.body_height_mm, 0)}</td>
                      <td className="channel-table__number">
                        {togglesOnce(channel.kind) ? (
                          <input
                            type="checkbox"
                            aria-label={t('advanced.useOnce', { name: channel.name })}
                            checked={countOf(channel.slug) > 0}
                            onChange={(event) => send({ kind: 'count', slug: channel.slug, count: event.target.checked ? 1 : 0, options: list })}
                          />
                        ) : (
                          <CountInput
                            label={t('advanced.countOf', { name: channel.name })}
                            value={countOf(channel.slug)}
                            onCommit={(count) => send({ kind: 'count', slug: channel.slug, count, options: list.length > 0 ? list : [channel as ChannelOption] })}
                          />
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <p className="channels-screen__stepped" aria-live="polite">
          {uses.length > 1 || inputs.stepped ? t('advanced.stepped') : t('advanced.singleSize')}
        </p>
        <FieldError id="adv-channels-error" text={channelsError} />
      </section>

      <section className="panel" aria-labelledby="adv-preview-title">
        <h3 id="adv-preview-title">{t('advanced.preview')}</h3>
        <RunPreview uses={uses} head={head} discharge={discharge} setting={setting} drilled={setting === 'modification-last-element' ? drillingOf(inputs.drilling) : null} trashBoxMM={trashBoxMM} targetMM={target} />
        <div className="button-row run-preview__actions">
          <button type="button" className="button button--small" aria-expanded={editing === 'head'} aria-controls="adv-cut-head" onClick={() => setEditing(editing === 'head' ? null : 'head')}>
            {t('advanced.editHead')}
          </button>
          <button type="button" className="button button--small" aria-expanded={editing === 'discharge'} aria-controls="adv-cut-discharge" onClick={() => setEditing(editing === 'discharge' ? null : 'discharge')}>
            {t('advanced.editDischarge')}
          </button>
        </div>
        {(editing === 'head' || errorOf('headCutting')) && (
          <CuttingPanel id="adv-cut-head" end="head" cutting={head} runLengthM={target / 1000} send={send} error={errorOf('headCutting')} disabled={uses.length === 0} />
        )}
        {(editing === 'discharge' || errorOf('dischargeCutting')) && (
          <CuttingPanel id="adv-cut-discharge" end="discharge" cutting={discharge} runLengthM={target / 1000} send={send} error={errorOf('dischargeCutting')} disabled={uses.length === 0 || lChannel} note={lChannel ? t('advanced.lNoDischargeCut') : null} />
        )}
      </section>

      <DischargePart inputs={inputs} system={system} uses={uses} setting={setting} send={send} errorOf={errorOf} />
    </>
  );
}

/** A count typed in the table, handed over on Enter or on leaving the cell; whole numbers from 0. */
function CountInput({ label, value, onCommit }: { label: string; value: number; onCommit: (count: number) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(String(value));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(String(value));
  }, [value, editing]);
  const parsed = draft.trim() === '' ? 0 : Number(draft.replace(',', '.'));
  const problem = countProblem('standard', parsed);
  function commit() {
    setEditing(false);
    if (problem !== null) return;
    if (parsed !== value) onCommit(parsed);
  }
  return (
    <span className="channel-table__count">
      <input
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        aria-label={label}
        aria-invalid={problem ? true : undefined}
        value={draft}
        onChange={(event) => {
          setEditing(true);
          setDraft(event.target.value);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
      />
      {problem && <span className="field-errors">{t(`advanced.count.${problem}`)}</span>}
    </span>
  );
}

interface CuttingPanelProps {
  id: string;
  end: 'head' | 'discharge';
  cutting: Cutting | null;
  runLengthM: number;
  send: Send;
  error: string | null;
  disabled: boolean;
  note?: string | null;
}

/** A cutting at one end (spec section 5: distance 0 to the run length in mm, angle 1 to 90 degrees with one decimal, from the left or the right). */
function CuttingPanel({ id, end, cutting, runLengthM, send, error, disabled, note }: CuttingPanelProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const problem = cutting ? cuttingProblem(cutting, runLengthM) : null;
  const put = (change: Partial<Cutting>) => send({ kind: 'cutting', end, cutting: { ...(cutting ?? (end === 'head' ? HEAD_CUTTING : DISCHARGE_CUTTING)), ...change } });
  const title = end === 'head' ? t('advanced.headCutting') : t('advanced.dischargeCutting');
  return (
    <fieldset id={id} className="design-form__group cutting-panel" disabled={disabled}>
      <legend>{title}</legend>
      {note && <p className="muted">{note}</p>}
      <div className="design-form__grid">
        <div className="field field--switch">
          <label>
            <input type="checkbox" checked={!!cutting} onChange={(event) => send({ kind: 'cutting', end, cutting: event.target.checked ? (end === 'head' ? HEAD_CUTTING : DISCHARGE_CUTTING) : null })} />
            {t('advanced.cut')}
          </label>
        </div>
        {cutting && (
          <>
            <NumberField
              id={`${id}-distance`}
              label={t('advanced.cutDistance')}
              unit="mm"
              min={0}
              max={Math.round(runLengthM * 1000)}
              step={1}
              value={cutting.distance_in_mm}
              onCommit={(value) => put({ distance_in_mm: value ?? 0 })}
              error={problem === 'distance' ? t('advanced.cutDistanceProblem', { max: format(runLengthM * 1000, 0) }) : null}
            />
            <NumberField
              id={`${id}-angle`}
              label={t('advanced.cutAngle')}
              unit="°"
              min={1}
              max={90}
              step={0.1}
              value={cutting.angle_deg}
              onCommit={(value) => put({ angle_deg: value ?? 90 })}
              error={problem === 'angle' ? t('advanced.cutAngleProblem') : null}
            />
            <fieldset className="field radio-group">
              <legend>{t('advanced.cutFrom')}</legend>
              <label>
                <input type="radio" name={`${id}-side`} checked={cutting.cut_from_left} onChange={() => put({ cut_from_left: true })} />
                {t('advanced.cutFromLeft')}
              </label>
              <label>
                <input type="radio" name={`${id}-side`} checked={!cutting.cut_from_left} onChange={() => put({ cut_from_left: false })} />
                {t('advanced.cutFromRight')}
              </label>
            </fieldset>
          </>
        )}
      </div>
      <FieldError text={error} />
    </fieldset>
  );
}

interface DischargePartProps {
  inputs: RunInputs;
  system: DrainageSystem;
  uses: ChannelUse[];
  setting: DischargeSetting;
  send: Send;
  errorOf: (...fields: string[]) => string | null;
}

/** The discharge (spec section 5, "Discharge radios"), with the trash box, the end cap outlet or the drilling it needs. */
function DischargePart({ inputs, system, uses, setting, send, errorOf }: DischargePartProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const enabled = dischargeOptions(system, uses);
  const last = lastUse(uses);
  const lChannel = hasLChannel(uses);
  const trashBoxes = useTrashBoxes({ product: system.slug, loading: inputs.loading, channel: last?.slug }, setting === 'outflow-in-trashbox' && !!last);
  const endCaps = useEndCaps(last?.slug, setting === 'end-cap-with-outlet' && !!last);
  const label: Record<DischargeSetting, string> = {
    'free-outflow': t('advanced.setting.freeOutflow'),
    'outflow-in-trashbox': t('advanced.setting.trashBox'),
    'end-cap-with-outlet': t('advanced.setting.endCap'),
    'modification-last-element': t('advanced.setting.modification'),
  };
  const trashBox = inputs.outflowTrashbox;
  const boxValue = typeof trashBox === 'number' || typeof trashBox === 'string' ? String(trashBox) : '';
  const boxes = trashBoxes.data ?? [];

  return (
    <fieldset className="design-form__group discharge-part">
      <legend>{t('advanced.discharge')}</legend>
      {lChannel ? (
        <p className="muted">{t('advanced.dischargeLocked')}</p>
      ) : (
        uses.length === 0 && system.product_type !== 'M' && <p className="muted">{t('advanced.dischargeNeedsChannels')}</p>
      )}
      <div className="radio-group discharge-part__options" role="radiogroup" aria-label={t('advanced.discharge')}>
        {DISCHARGE_SETTINGS.map((which) => (
          <label key={which}>
            <input type="radio" name="adv-discharge" checked={setting === which} disabled={!enabled[which]} onChange={() => send({ kind: 'discharge', setting: which })} />
            {label[which]}
          </label>
        ))}
      </div>
      <FieldError text={errorOf('dischargeSetting')} />

      {setting === 'outflow-in-trashbox' && (
        <div className={errorOf('outflowTrashbox') ? 'field field--invalid' : 'field'}>
          <label htmlFor="adv-trashbox">{t('advanced.trashBox')}</label>
          <select
            id="adv-trashbox"
            value={boxValue}
            aria-busy={trashBoxes.isPending || undefined}
            onChange={(event) => send({ kind: 'trashBox', value: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="" disabled>
              {t('advanced.trashBoxPlaceholder')}
            </option>
            {boxes.map((discharge) => (
              <option key={discharge} value={String(discharge)}>
                {t('advanced.trashBoxOption', { discharge: format(discharge, 1) })}
              </option>
            ))}
            {/* Another run's trash box (shared outflow) is offered by the catchment screens; a chosen one shows here. */}
            {boxValue !== '' && !boxes.some((discharge) => String(discharge) === boxValue) && <option value={boxValue}>{boxValue}</option>}
          </select>
          {trashBoxes.isSuccess && boxes.length === 0 && <p className="field-errors">{t('advanced.noTrashBoxes')}</p>}
          <FieldError text={errorOf('outflowTrashbox')} />
        </div>
      )}

      {setting === 'end-cap-with-outlet' && (
        <div className={errorOf('outflowEndcap') ? 'field field--invalid' : 'field'}>
          <label htmlFor="adv-endcap">{t('advanced.endCap')}</label>
          <select id="adv-endcap" value={typeof inputs.outflowEndcap === 'string' ? inputs.outflowEndcap : ''} aria-busy={endCaps.isPending || undefined} onChange={(event) => send({ kind: 'endCap', id: event.target.value || null })}>
            <option value="" disabled>
              {t('advanced.endCapPlaceholder')}
            </option>
            {(endCaps.data ?? []).map((cap) => (
              <option key={cap.id} value={cap.id}>
                {t('advanced.endCapOption', { diameter: cap.outlet_diameter_mm, material: cap.material })}
              </option>
            ))}
          </select>
          {endCaps.isSuccess && endCaps.data.length === 0 && <p className="field-errors">{t('advanced.noEndCaps')}</p>}
          <FieldError text={errorOf('outflowEndcap')} />
        </div>
      )}

      {setting === 'modification-last-element' && <DrillingFields inputs={inputs} uses={uses} send={send} error={errorOf('drilling')} />}
    </fieldset>
  );
}

/** The drilled outlet of the last element (spec section 5, "Drilling"); an L channel's preset is shown, not edited. */
function DrillingFields({ inputs, uses, send, error }: { inputs: RunInputs; uses: ChannelUse[]; send: Send; error: string | null }) {
  const { t } = useTranslation();
  const drilling = drillingOf(inputs.drilling);
  const last = lastUse(uses);
  if (!last) return null;
  if (last.kind === 'l') {
    return <p className="channels-screen__preset">{t('advanced.lPreset', { diameter: drilling.hole_diameter_mm, distance: drilling.hole_distance_mm })}</p>;
  }
  const element = lastElementLengthMM(uses, cuttingOf(inputs.headCutting), cuttingOf(inputs.dischargeCutting));
  const diameters = drillDiameters(last.width_mm, last.max_downstream_water_depth_mm, drilling.position);
  const range = drillDistanceRange(element, drilling.hole_diameter_mm);
  const problem = drillingProblem(drilling, last, element);
  return (
    <fieldset className="design-form__group drilling-fields">
      <legend>{t('advanced.drilling')}</legend>
      <div className="design-form__grid">
        <div className="field">
          <label htmlFor="adv-drill-position">{t('advanced.drillPosition')}</label>
          <select id="adv-drill-position" value={drilling.position} onChange={(event) => send({ kind: 'drilling', drilling: { position: event.target.value as typeof drilling.position } })}>
            {DRILL_POSITIONS.map((position) => (
              <option key={position} value={position}>
                {t(`advanced.drill.${position}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={problem === 'diameter' ? 'field field--invalid' : 'field'}>
          <label htmlFor="adv-drill-diameter">{t('advanced.drillDiameter')}</label>
          <select id="adv-drill-diameter" value={String(drilling.hole_diameter_mm)} onChange={(event) => send({ kind: 'drilling', drilling: { hole_diameter_mm: Number(event.target.value) } })}>
            {!diameters.includes(drilling.hole_diameter_mm) && <option value={String(drilling.hole_diameter_mm)}>{drilling.hole_diameter_mm} mm</option>}
            {diameters.map((diameter) => (
              <option key={diameter} value={String(diameter)}>
                {diameter} mm
              </option>
            ))}
          </select>
          {problem === 'diameter' && <p className="field-errors">{t('advanced.drillDiameterProblem')}</p>}
        </div>
        <NumberField
          id="adv-drill-distance"
          label={t('advanced.drillDistance')}
          unit="mm"
          min={range.min}
          max={range.max}
          step={1}
          value={drilling.hole_distance_mm}
          onCommit={(value) => send({ kind: 'drilling', drilling: { hole_distance_mm: value ?? range.min } })}
          error={problem === 'distance' ? t('advanced.drillDistanceProblem', { min: range.min, max: range.max }) : problem === 'noFit' ? t('advanced.drillNoFit') : null}
          hint={problem ? null : t('advanced.drillDistanceProblem', { min: range.min, max: range.max })}
        />
      </div>
      <FieldError text={error} />
    </fieldset>
  );
}

/** The in-situ concrete channel (spec section 5): width and depth in whole mm, Manning's n with Kst = 1/n beside it. */
function ConcreteFields({ inputs, send, error }: { inputs: RunInputs; send: Send; error: string | null }) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const section = concreteOf(inputs.concreteChannel);
  const whole = (value: number) => value > 0 && Number.isInteger(value);
  const roughnessOk = concreteProblem({ width: 1, depth: 1, roughness: section.roughness }) === null;
  return (
    <fieldset className="design-form__group concrete-fields">
      <legend>{t('advanced.concrete')}</legend>
      <div className="design-form__grid">
        <NumberField id="adv-concrete-width" label={t('advanced.concreteWidth')} unit="mm" min={0} step={1} value={section.width || null} onCommit={(value) => send({ kind: 'concrete', section: { width: value ?? 0 } })} error={whole(section.width) ? null : t('advanced.concreteSize')} />
        <NumberField id="adv-concrete-depth" label={t('advanced.concreteDepth')} unit="mm" min={0} step={1} value={section.depth || null} onCommit={(value) => send({ kind: 'concrete', section: { depth: value ?? 0 } })} error={whole(section.depth) ? null : t('advanced.concreteSize')} />
        <NumberField
          id="adv-concrete-n"
          label={t('advanced.roughness')}
          min={ROUGHNESS.min}
          max={ROUGHNESS.max}
          step={0.01}
          value={section.roughness}
          onCommit={(value) => send({ kind: 'concrete', section: { roughness: value ?? ROUGHNESS.default } })}
          error={roughnessOk ? null : t('advanced.roughnessRange')}
        />
        <NumberField
          id="adv-concrete-kst"
          label={t('advanced.kst')}
          unit="m^⅓/s"
          min={KST.min}
          max={KST.max}
          step={1}
          value={Math.round(kstOf(section.roughness) * 100) / 100 || null}
          onCommit={(value) => send({ kind: 'kst', kst: value })}
          hint={t('advanced.kstHint', { n: format(section.roughness, 5), kst: format(kstOf(section.roughness), 2) })}
        />
      </div>
      <FieldError text={error} />
    </fieldset>
  );
}
