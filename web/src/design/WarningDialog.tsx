import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { systemName } from './catalogueText';
import { useProject, useProjectActor } from './ProjectProvider';
import type { ProjectDialog } from './projectSteps';
import { slopeRatio } from './runRules';
import type { AutoCutDialog } from './advancedRules';
import { targetLengthMM } from './advancedRules';
import { useNumberFormat } from '../results/format';

/** The design's warning dialogs (spec section 8), as the project machine raises them. */
export function WarningDialog() {
  const dialog = useProject((s) => s.context.dialog);
  if (!dialog) return null;
  return <WarningBody dialog={dialog} />;
}

function WarningBody({ dialog }: { dialog: ProjectDialog }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const [skip, setSkip] = useState(false);
  const format = useNumberFormat();
  // The cap as the field holds it (9.9 %) and as the same slope in "1 in N" (1 in 10.1).
  const slopeLimit = (limit: number) => ({ limit: format(limit, 1), ratio: format(slopeRatio(limit), 1) });
  const close = () => project.send({ type: 'DIALOG.CLOSE' });
  const ok = (
    <button type="button" className="button button--primary" onClick={close} data-autofocus>
      {t('common.ok')}
    </button>
  );

  switch (dialog.kind) {
    case 'lengthOver500':
      return (
        <Dialog title={t('warning.lengthOver500Title')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.lengthOver500', { excess: dialog.excess })}</p>
        </Dialog>
      );
    case 'lengthOverLimit':
      return (
        <Dialog title={t('warning.lengthOverLimitTitle')} tone="error" width={600} onClose={close} actions={ok}>
          <p>{t('warning.lengthOverLimit', { method: dialog.method, limit: dialog.limit, excess: dialog.excess })}</p>
        </Dialog>
      );
    case 'areaTooLarge':
      return (
        <Dialog title={t('warning.areaTooLargeTitle')} tone="error" width={600} onClose={close} actions={ok}>
          <p>{t('warning.areaTooLarge', { excess: dialog.excess })}</p>
        </Dialog>
      );
    case 'slopeTooSteep':
      return (
        <Dialog title={t('warning.slopeTooSteepTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.slopeTooSteep', { method: dialog.method, ...slopeLimit(dialog.limit) })}</p>
        </Dialog>
      );
    case 'elevationTooSteep':
      return (
        <Dialog title={t('warning.slopeTooSteepTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.elevationTooSteep', { method: dialog.method, ...slopeLimit(dialog.limit) })}</p>
        </Dialog>
      );
    case 'uphill':
      return (
        <Dialog
          title={t('warning.uphillTitle')}
          tone="warning"
          onClose={close}
          actions={
            <>
              <button type="button" className="button button--primary" onClick={() => project.send({ type: 'DIALOG.SWAP' })} data-autofocus>
                {t('warning.swap')}
              </button>
              <button type="button" className="button button--quiet" onClick={close}>
                {t('common.ok')}
              </button>
            </>
          }
        >
          <p>{t('warning.uphill')}</p>
        </Dialog>
      );
    case 'steppedNotAllowed':
      return (
        <Dialog title={t('warning.steppedTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{dialog.material === 'steelOrConcrete' ? t('warning.steppedSteelOrConcrete') : t('warning.steppedNotAvailable', { system: systemName(t, dialog.system) })}</p>
        </Dialog>
      );
    case 'theoreticalStepping':
      return (
        <Dialog title={t('warning.steppedTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.theoreticalStepping', { system: systemName(t, dialog.system) })}</p>
        </Dialog>
      );
    case 'superCritical':
      return (
        <Dialog
          title={t('warning.superCriticalTitle')}
          tone="warning"
          width={800}
          onClose={close}
          actions={
            <button type="button" className="button button--primary" data-autofocus onClick={() => project.send({ type: skip ? 'DIALOG.SKIP' : 'DIALOG.CLOSE' })}>
              {t('common.ok')}
            </button>
          }
        >
          <p>{t('warning.superCritical')}</p>
          <label className="checkbox">
            <input type="checkbox" checked={skip} onChange={(event) => setSkip(event.target.checked)} />
            {t('warning.dontShowAgain')}
          </label>
        </Dialog>
      );
    case 'position':
      return (
        <Dialog title={t('warning.positionTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.position')}</p>
        </Dialog>
      );
    case 'autoCut':
      return <AutoCutBody dialog={dialog} onClose={close} />;
    case 'resetAccessories':
      return (
        <Dialog title={t('warning.resetAccessoriesTitle')} tone="warning" onClose={close} actions={ok}>
          <p>{t('warning.resetAccessories')}</p>
        </Dialog>
      );
    case 'confirmNew':
      return (
        <Dialog
          title={t('column.newTitle')}
          onClose={close}
          actions={
            <>
              <button type="button" className="button button--primary" onClick={() => project.send({ type: 'NEW.CONFIRM' })}>
                {t('column.newConfirm')}
              </button>
              <button type="button" className="button button--quiet" onClick={close} data-autofocus>
                {t('common.cancel')}
              </button>
            </>
          }
        >
          <p>{t('column.newBody')}</p>
        </Dialog>
      );
  }
}

/**
 * The auto-cut dialog (spec section 4): channels longer than the run are
 * cut at the head or the discharge; shorter ones shorten the run; or the
 * designer goes back to the channels. Each choice recalculates.
 */
function AutoCutBody({ dialog, onClose }: { dialog: AutoCutDialog; onClose: () => void }) {
  const { t } = useTranslation();
  const project = useProjectActor();
  const format = useNumberFormat();
  const target = useProject((s) => {
    const run = s.context.selectedRunId ? s.context.data?.runs[s.context.selectedRunId] : undefined;
    return run ? targetLengthMM(run.inputs) : 0;
  });
  const difference = format(dialog.differenceMM / 1000, 3);
  const manual = () => {
    onClose();
    project.send({ type: 'ADVANCED.VIEW', view: 'channels' });
  };
  const choose = (choice: 'head' | 'discharge' | 'shorten') => project.send({ type: 'AUTOCUT', choice });
  const offered = (choice: 'head' | 'discharge' | 'shorten') => dialog.choices.includes(choice);
  return (
    <Dialog
      title={t('autoCut.title')}
      tone="warning"
      width={600}
      onClose={onClose}
      actions={
        <>
          {dialog.short ? (
            <button type="button" className="button button--primary" disabled={!offered('shorten')} onClick={() => choose('shorten')} data-autofocus>
              {t('autoCut.shorten', { length: format((target - dialog.differenceMM) / 1000, 3) })}
            </button>
          ) : (
            <>
              <button type="button" className="button button--primary" disabled={!offered('head')} onClick={() => choose('head')} data-autofocus>
                {t('autoCut.head')}
              </button>
              <button type="button" className="button button--primary" disabled={!offered('discharge')} onClick={() => choose('discharge')}>
                {t('autoCut.discharge')}
              </button>
            </>
          )}
          <button type="button" className="button button--quiet" onClick={manual}>
            {t('autoCut.manual')}
          </button>
        </>
      }
    >
      <p>{t(dialog.short ? 'autoCut.short' : 'autoCut.long', { difference, target: format(target / 1000, 3) })}</p>
      {!dialog.short && dialog.choices.length < 2 && <p className="muted">{t('autoCut.someImpossible')}</p>}
    </Dialog>
  );
}
