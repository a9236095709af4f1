import { afterEach, describe, expect, it } from 'vitest';
import { dialogOpen, followTyping, projectShortcut, shortcutOf, type KeyPress } from './keyboard';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('undo and redo keys', () => {
  it.each([
    ['Ctrl+Z', press('z', { ctrlKey: true }), 'undo'],
    ['Cmd+Z', press('z', { metaKey: true }), 'undo'],
    ['Ctrl+Shift+Z', press('Z', { ctrlKey: true, shiftKey: true }), 'redo'],
    ['Cmd+Shift+Z', press('Z', { metaKey: true, shiftKey: true }), 'redo'],
    ['Ctrl+Y', press('y', { ctrlKey: true }), 'redo'],
    ['Z alone', press('z'), null],
    ['Ctrl+Alt+Z', press('z', { ctrlKey: true, altKey: true }), null],
    ['Ctrl+Shift+Y', press('Y', { ctrlKey: true, shiftKey: true }), null],
    ['Ctrl+X', press('x', { ctrlKey: true }), null],
  ])('%s', (_name, key, want) => {
    expect(shortcutOf(key)).toBe(want);
  });

  it('leave typing and dialogs to the browser', () => {
    const undo = press('z', { ctrlKey: true });
    expect(projectShortcut(undo, { typing: false, inDialog: false })).toBe('undo');
    expect(projectShortcut(undo, { typing: true, inDialog: false })).toBeNull();
    expect(projectShortcut(undo, { typing: false, inDialog: true })).toBeNull();
  });
});

describe('following typing', () => {
  let stop = () => undefined as void;
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
  });

  it('counts a field as typing from its first input until Enter or leaving it', () => {
    document.body.innerHTML = '<input id="length" type="number"><input id="other"><textarea id="notes"></textarea><input id="tick" type="checkbox">';
    const follow = followTyping(document);
    stop = follow.stop;
    const length = document.getElementById('length') as HTMLInputElement;
    length.focus();
    expect(follow.typing()).toBe(false);
    length.dispatchEvent(new Event('input', { bubbles: true }));
    expect(follow.typing()).toBe(true);
    length.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(follow.typing()).toBe(false);

    length.dispatchEvent(new Event('input', { bubbles: true }));
    (document.getElementById('other') as HTMLInputElement).focus();
    expect(follow.typing()).toBe(false);

    // A tick box has no text of its own to undo.
    const tick = document.getElementById('tick') as HTMLInputElement;
    tick.focus();
    tick.dispatchEvent(new Event('input', { bubbles: true }));
    expect(follow.typing()).toBe(false);

    // Notes are a text area: its own undo always.
    (document.getElementById('notes') as HTMLTextAreaElement).focus();
    expect(follow.typing()).toBe(true);
  });

  it('sees an open modal dialog', () => {
    expect(dialogOpen(document)).toBe(false);
    document.body.innerHTML = '<div role="dialog" aria-modal="true"></div>';
    expect(dialogOpen(document)).toBe(true);
  });
});
