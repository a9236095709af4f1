import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/ServicesContext';
import { DateField } from '../components/DateField';
import { Dialog } from '../components/Dialog';
import { useMessageText } from '../components/MessageText';
import { useProject, useProjectActor } from '../design/ProjectProvider';
import { DETAIL_FIELDS, type ProjectDetails } from '../design/types';
import { todayISO } from '../i18n/locale';

const INPUT_TYPE: Partial<Record<keyof ProjectDetails, string>> = { telephone: 'tel', email: 'email' };

/** The save dialog: project details, share with the provider, save or save as new. */
export function SaveDialog() {
  const open = useProject((s) => s.context.panel === 'save');
  return open ? <SaveDialogBody /> : null;
}

function SaveDialogBody() {
  const { t } = useTranslation();
  const project = useProjectActor();
  const text = useMessageText();
  const details = useProject((s) => s.context.data!.details);
  const editable = useProject((s) => s.context.data?.editable ?? true);
  const sharedBefore = useProject((s) => s.context.data?.shareWithProvider ?? false);
  const saving = useProject((s) => s.context.inFlight?.kind === 'save' || s.context.queue.some((item) => item.kind === 'save'));
  const saveError = useProject((s) => s.context.saveError);
  const user = useSession((s) => s.context.user);
  // Empty contact fields start with the user's own, as the designer is usually the one saving.
  const [values, setValues] = useState<ProjectDetails>(() => ({
    ...details,
    company: details.company || user?.company || '',
    telephone: details.telephone || user?.telephone || '',
    email: details.email || (user as { email?: string } | null)?.email || '',
    designer: details.designer || fullName(user) || user?.username || '',
    date: details.date || todayISO(),
  }));
  const [share, setShare] = useState(sharedBefore);
  const close = () => project.send({ type: 'PANEL', panel: null });

  function save(asNew: boolean) {
    project.send({ type: 'DETAILS', details: values });
    project.send({ type: 'SAVE', asNew, share });
  }

  return (
    <Dialog
      title={t('save.title')}
      width={640}
      onClose={close}
      actions={
        <>
          {editable && (
            <button type="button" className="button button--primary" disabled={saving} onClick={() => save(false)}>
              {saving ? t('save.saving') : t('save.save')}
            </button>
          )}
          <button type="button" className={editable ? 'button button--quiet' : 'button button--primary'} disabled={saving} onClick={() => save(true)}>
            {t('save.saveAsNew')}
          </button>
          <button type="button" className="button button--quiet" onClick={close}>
            {t('common.cancel')}
          </button>
        </>
      }
    >
      {!editable && <p className="notice notice--info">{t('save.sharedProject')}</p>}
      <form
        className="design-form__grid"
        onSubmit={(event) => {
          event.preventDefault();
          save(!editable);
        }}
      >
        {DETAIL_FIELDS.map((field) => (
          <div className={field === 'name' ? 'field field--wide' : 'field'} key={field}>
            <label htmlFor={`save-${field}`}>
              {t(`details.${field}`)}
              {field === 'name' && (
                <span className="field__required" aria-hidden="true">
                  {' *'}
                </span>
              )}
            </label>
            {field === 'date' ? (
              <DateField id="save-date" value={values.date} onCommit={(date) => setValues((current) => ({ ...current, date }))} />
            ) : (
              <input
                id={`save-${field}`}
                type={INPUT_TYPE[field] ?? 'text'}
                value={values[field]}
                aria-required={field === 'name' || undefined}
                onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
              />
            )}
          </div>
        ))}
        <label className="checkbox field--wide">
          <input type="checkbox" checked={share} onChange={(event) => setShare(event.target.checked)} />
          {t('save.shareWithProvider')}
        </label>
        <button type="submit" hidden />
      </form>
      {saveError && (
        <p className="notice notice--error" role="alert">
          {text(saveError)}
        </p>
      )}
    </Dialog>
  );
}

function fullName(user: unknown): string {
  const named = user as { first_name?: string; last_name?: string } | null;
  return [named?.first_name, named?.last_name].filter(Boolean).join(' ');
}
