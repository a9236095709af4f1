import './catchment.css';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberField } from '../components/NumberField';
import { useProject, useProjectActor } from '../design/ProjectProvider';
import type { RunData } from '../design/projectModel';
import { displayRunName } from '../design/runNames';
import { ProfileChart } from '../results/ProfileChart';
import { useNumberFormat } from '../results/format';
import { inflowSources } from './chains';
import { ItemPopup, type SourceOption } from './ItemPopup';
import { itemPopupMachine, type PopupItem } from './itemPopupMachine';
import {
  acceptAccessory,
  acceptInflow,
  accessoriesOf,
  confirmedOnly,
  inflowsOf,
  newAccessory,
  newInflow,
  placementEnv,
  removeAccessory,
  removeInflow,
  type Items,
} from './items';
import { linkedRuns } from './shared';

type PickKind = 'inflow' | 'accessory';

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `item-${Date.now()}-${Math.random().toString(36).slice(2)}`);

interface ProfileItemsProps {
  run: RunData;
  zeroAtDischarge: boolean;
  /** The run's results are being calculated again for the profile: the chart waits. */
  refreshing: boolean;
}

/**
 * The hydraulic profile with the run's point inflows and accessories (spec
 * sections 2 to 5): a click on the profile (or the "add at chainage" form,
 * for the keyboard) opens the inflow or accessory popup at that place; the
 * items placed are listed to edit again. Each accepted change is a run edit.
 */
export function ProfileItems({ run, zeroAtDischarge, refreshing }: ProfileItemsProps) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const project = useProjectActor();
  const [snapshot, send, actor] = useMachine(itemPopupMachine);
  const [kind, setKind] = useState<PickKind>('inflow');
  const [chainage, setChainage] = useState<number | null>(null);
  const modeName = useId();
  const results = run.results!;
  const env = placementEnv(run.inputs, results);
  const items: Items = { inflows: inflowsOf(run.inputs), accessories: accessoriesOf(run.inputs) };
  const sourceIds = useProject((s) => (s.context.data ? inflowSources(linkedRuns(s.context.data), run.id, snapshot.context.draft?.item.id) : []), sameList);
  const runs = useProject((s) => s.context.data?.runs);
  const sources: SourceOption[] = sourceIds.map((id) => {
    const other = runs?.[id];
    const discharge = other?.results?.calculated ? (other.results.channel_discharge ?? null) : null;
    return { id, name: other ? displayRunName(t, other.name) : id, dischargeLps: discharge };
  });

  // The popup's accept and delete become run edits on the lists as they are then.
  const latest = useRef({ items, env });
  useEffect(() => {
    latest.current = { items, env };
  });
  useEffect(() => {
    const edit = (next: Items) => project.send({ type: 'EDIT', field: 'items', value: next });
    const accepted = actor.on('accept', ({ draft }) => {
      const { items: now, env: where } = latest.current;
      edit(draft.kind === 'inflow' ? acceptInflow(now, draft.item, where, newId) : acceptAccessory(now, draft.item));
    });
    const removed = actor.on('remove', ({ draft }) => {
      const now = latest.current.items;
      edit(draft.kind === 'inflow' ? removeInflow(now, draft.item.id) : removeAccessory(now, draft.item.id));
    });
    return () => {
      accepted.unsubscribe();
      removed.unsubscribe();
    };
  }, [actor, project]);

  const open = (draft: PopupItem, placed: boolean) => send({ type: 'OPEN', draft, env, placed });
  const pick = (fromHead: number, what: PickKind = kind) =>
    open(what === 'inflow' ? { kind: 'inflow', item: newInflow(newId(), fromHead, env) } : { kind: 'accessory', item: newAccessory(newId(), fromHead, env) }, false);
  const runName = (id: string | null) => {
    const other = id ? runs?.[id] : undefined;
    return other ? displayRunName(t, other.name) : '';
  };
  const inflows = confirmedOnly(items.inflows);
  const accessories = confirmedOnly(items.accessories);

  return (
    <div className="profile-items">
      <div className="profile-items__bar">
        <fieldset className="profile-items__mode">
          <legend>{t('items.clickAdds')}</legend>
          {(['inflow', 'accessory'] as const).map((which) => (
            <label key={which}>
              <input type="radio" name={modeName} checked={kind === which} onChange={() => setKind(which)} />
              {t(which === 'inflow' ? 'items.inflow' : 'items.accessory')}
            </label>
          ))}
        </fieldset>
        <form
          className="profile-items__add"
          aria-label={t('items.addAt')}
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <NumberField id="items-chainage" label={t('items.addAtChainage')} unit="m" min={0} max={env.lengthM} step={0.1} value={chainage} onCommit={setChainage} />
          <button type="button" className="button button--small" disabled={chainage === null} onClick={() => chainage !== null && pick(chainage, 'inflow')}>
            {t('items.addInflow')}
          </button>
          <button type="button" className="button button--small" disabled={chainage === null} onClick={() => chainage !== null && pick(chainage, 'accessory')}>
            {t('items.addAccessory')}
          </button>
        </form>
      </div>
      {refreshing ? (
        <p className="muted">{t('results.profileLoading')}</p>
      ) : (
        <ProfileChart results={results} inputs={{ inflows, accessories }} zeroAtDischarge={zeroAtDischarge} onPick={(at) => pick(at)} />
      )}
      <section className="profile-items__list" aria-label={t('items.placed')}>
        {inflows.length + accessories.length === 0 ? (
          <p className="muted">{t('items.none')}</p>
        ) : (
          <ul>
            {inflows.map((inflow) => (
              <li key={inflow.id} data-item="inflow">
                <span>
                  {inflow.source
                    ? t('items.inflowFromRun', { position: format(inflow.distance_m, 2), run: runName(inflow.source), flow: format(inflow.flow_lps, 2) })
                    : t('items.inflowAt', { position: format(inflow.distance_m, 2), flow: format(inflow.flow_lps, 2) })}
                  {inflow.connection ? ` (${t(`items.connection.${inflow.connection}`)})` : ''}
                </span>
                <button type="button" className="button button--quiet button--small" onClick={() => open({ kind: 'inflow', item: inflow }, true)}>
                  {t('items.edit')}
                </button>
              </li>
            ))}
            {accessories.map((accessory) => (
              <li key={accessory.id} data-item="accessory">
                <span>
                  {t('items.accessoryAt', {
                    type: accessory.type ? t(`items.type.${accessory.type}`) : '–',
                    distance: format(accessory.distance_m, 2),
                    position: format(env.lengthM - accessory.distance_m, 2),
                  })}
                </span>
                <button type="button" className="button button--quiet button--small" onClick={() => open({ kind: 'accessory', item: accessory }, true)}>
                  {t('items.edit')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {snapshot.matches('open') && <ItemPopup context={snapshot.context} send={send} sources={sources} />}
    </div>
  );
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
