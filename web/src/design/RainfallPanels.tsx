import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { ChunkSuspense, lazyChunk } from '../components/chunk';
import type { RunRainfall } from '../rainfall/types';
import type { RunInputs } from './types';
import { useProject, useProjectActor } from './ProjectProvider';

// Leaflet and the UK outline load with the map, not with the design screen.
const RainfallMapDialog = lazyChunk(() => import('../rainfall/RainfallMapDialog'));
const ControlledDischargeDialog = lazyChunk(() => import('../storage/ControlledDischargeDialog'));

/** Spec section 6: only users of the UK region see the rainfall map. */
export function useUkRegion(): boolean {
  return useSession((s) => s.context.user?.country?.region === 'UK');
}

/** The rainfall map and the controlled discharge dialog of the selected run, when the project opens them. */
export function RainfallPanels() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const panel = useProject((s) => s.context.panel);
  const runId = useProject((s) => s.context.selectedRunId);
  const inputs = useProject((s) => (runId ? s.context.data?.runs[runId]?.inputs : undefined));
  const defaultRainfall = useProject((s) => s.context.data?.defaultRainfall ?? null);
  const units = useProject((s) => s.context.data?.rainfallUnits ?? 'mm/h');
  const uk = useUkRegion();
  if (!inputs || (panel !== 'rainfallMap' && panel !== 'storage')) return null;
  const close = () => project.send({ type: 'PANEL', panel: null });
  const applyRainfall = (rainfall: RunRainfall, makeDefault: boolean) => project.send({ type: 'RAINFALL.APPLY', rainfall, makeDefault });

  return (
    <ChunkSuspense fallback={null} dialog={{ title: t(panel === 'rainfallMap' ? 'rainfall.title' : 'storage.title'), onClose: close }}>
      {panel === 'rainfallMap' ? (
        <RainfallMapDialog key={runId} rainfall={inputs.rainfall as RunRainfall | undefined} units={units} onApply={applyRainfall} onCancel={close} />
      ) : (
        <ControlledDischargeDialog
          key={runId}
          inputs={inputs}
          defaultRainfall={defaultRainfall}
          units={units}
          canUseMap={uk}
          onConfirm={(changes: Partial<RunInputs>) => project.send({ type: 'CONTROLLED.CONFIRM', changes })}
          onReset={(changes: Partial<RunInputs>) => project.send({ type: 'CONTROLLED.RESET', changes })}
          onCancel={close}
          onRainfallApplied={applyRainfall}
        />
      )}
    </ChunkSuspense>
  );
}
