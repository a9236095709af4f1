import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/Dialog';
import { systemName } from './catalogueText';
import { useProject, useProjectActor } from './ProjectProvider';
import type { ProjectDialog } from './projectSteps';
import { slopeRatio } from './runRules';
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
