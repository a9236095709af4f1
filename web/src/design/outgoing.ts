// The project's outgoing work, sent one item at a time in the order it was
// asked for: an input change always reaches the server before the
// calculation or save that follows it. The queue holds what waits; the item
// on its way is held apart, so merging never touches it.
import type { ProjectCommand } from '../api/projectTypes';
import { keys, markPending, type ProjectData } from './projectModel';

export type Outgoing =
  | { kind: 'command'; command: ProjectCommand; keys: string[]; duplicateOf?: string; selectNew?: boolean }
  /** `partnerId`: a linked run calculated together with it (calculate_shared). */
  | { kind: 'calculate'; runId: string; partnerId?: string }
  | { kind: 'save'; asNew: boolean; share: boolean }
  | { kind: 'share' };

/** The field keys a command writes. */
export function commandKeys(command: ProjectCommand): string[] {
  switch (command.type) {
    case 'change_inputs':
      return Object.keys(command.fields).map((field) => keys.input(command.run_id, field));
    case 'rename_run':
      return [keys.name(command.run_id)];
    case 'change_notes':
      return [keys.notes(command.run_id)];
    case 'reorder_runs':
      return [keys.order];
    case 'change_details':
      return [keys.details];
    default:
      return [];
  }
}

/**
 * Adds a command to the queue. Successive input changes of one run, and
 * successive detail changes, merge into the last queued one, so typing
 * sends a few requests rather than one a keystroke.
 */
export function enqueueCommand(
  queue: readonly Outgoing[],
  data: ProjectData,
  command: ProjectCommand,
  extra: { duplicateOf?: string; selectNew?: boolean } = {},
): { queue: Outgoing[]; data: ProjectData } {
  const last = queue[queue.length - 1];
  if (last?.kind === 'command') {
    const merged = merge(last, command);
    if (merged) {
      const fresh = merged.keys.filter((key) => !last.keys.includes(key));
      return { queue: [...queue.slice(0, -1), merged], data: markPending(data, fresh) };
    }
  }
  const fieldKeys = commandKeys(command);
  return { queue: [...queue, { kind: 'command', command, keys: fieldKeys, ...extra }], data: markPending(data, fieldKeys) };
}

function merge(last: Extract<Outgoing, { kind: 'command' }>, next: ProjectCommand): Extract<Outgoing, { kind: 'command' }> | null {
  const previous = last.command;
  if (previous.type === 'change_inputs' && next.type === 'change_inputs' && previous.run_id === next.run_id) {
    const command = { ...previous, fields: { ...previous.fields, ...next.fields } };
    return { ...last, command, keys: commandKeys(command) };
  }
  if (previous.type === 'change_details' && next.type === 'change_details') {
    return { ...last, command: next };
  }
  return null;
}
