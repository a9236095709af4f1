// The keyboard's undo and redo on the design screen. Ctrl+Z (Cmd+Z on a
// Mac) undoes the project's last edit and Ctrl+Shift+Z or Ctrl+Y redoes it,
// except where the browser's own undo is what the user means: while text is
// being typed into a field and not yet entered (Enter or leaving the field
// hands it to the design), and in a dialog, whose fields are not the
// project's yet.

export type Shortcut = 'undo' | 'redo';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The shortcut a key press is, if any. */
export function shortcutOf(press: KeyPress): Shortcut | null {
  if (!(press.ctrlKey || press.metaKey) || press.altKey) return null;
  const key = press.key.toLowerCase();
  if (key === 'z') return press.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !press.shiftKey) return 'redo';
  return null;
}

/** Where the key press happened, as far as the choice between the project's undo and the browser's cares. */
export interface KeyPlace {
  /** Text typed into the focused field and not yet entered. */
  typing: boolean;
  /** A modal dialog is open. */
  inDialog: boolean;
}

/** The project's undo or redo for this key press, or null to leave it to the browser. */
export function projectShortcut(press: KeyPress, place: KeyPlace): Shortcut | null {
  if (place.typing || place.inDialog) return null;
  return shortcutOf(press);
}

/**
 * Follows typing in the document's fields: a field is "typing" from its
 * first input event until its text is entered (Enter) or it loses focus.
 * Returns a probe for the focused element and a function that stops
 * following.
 */
export function followTyping(doc: Document): { typing: () => boolean; stop: () => void } {
  let typed: EventTarget | null = null;
  const onInput = (event: Event) => {
    if (isTextField(event.target)) typed = event.target;
  };
  const onDone = (event: Event) => {
    if (event.target === typed) typed = null;
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === 'Escape') onDone(event);
  };
  doc.addEventListener('input', onInput, true);
  doc.addEventListener('focusout', onDone, true);
  doc.addEventListener('keydown', onKey, true);
  return {
    typing: () => {
      const active = doc.activeElement;
      // Text areas keep their own undo: their Enter is a new line, not "done".
      if (active instanceof HTMLTextAreaElement || (active instanceof HTMLElement && active.isContentEditable)) return true;
      return typed !== null && typed === active;
    },
    stop: () => {
      doc.removeEventListener('input', onInput, true);
      doc.removeEventListener('focusout', onDone, true);
      doc.removeEventListener('keydown', onKey, true);
    },
  };
}

function isTextField(target: EventTarget | null): boolean {
  if (target instanceof HTMLTextAreaElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'range', 'button', 'submit', 'reset', 'file', 'color'].includes(target.type);
}

/** A modal dialog is open in the document. */
export function dialogOpen(doc: Document): boolean {
  return doc.querySelector('[aria-modal="true"]') !== null;
}
