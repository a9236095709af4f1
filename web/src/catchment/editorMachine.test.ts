import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { coversRun, totalArea, type Catchment, type CatchmentArea } from './areas';
import { editorMachine, shownCatchment, type EditorEmitted } from './editorMachine';

const area = (xOrigin: number, length: number, start: number, end: number): CatchmentArea => ({
  xOrigin, length_m: length, start_width_m: start, end_width_m: end, permeability: 'concretePavement', permeability_value: 1,
});

/** The editor with the run's areas as the screen would hold them: each commit becomes the areas. */
function editor(initial: Catchment) {
  const actor = createActor(editorMachine, { input: { selected: { side: 'left', index: 0 } } });
  let catchment = initial;
  const commits: Catchment[] = [];
  actor.on('commit', (event: EditorEmitted) => {
    catchment = event.catchment;
    commits.push(catchment);
    actor.send({ type: 'SYNC', catchment });
  });
  actor.start();
  return { actor, commits, get catchment() { return catchment; } };
}

const start: Catchment = { left: [area(0, 20, 5, 5)], right: [area(0, 20, 5, 5)] };

describe('the catchment editor', () => {
  it('divides the selected area in the divide window, the two lengths always summing to the whole', () => {
    const e = editor(start);
    e.actor.send({ type: 'DIVIDE.OPEN', catchment: e.catchment });
    expect(e.actor.getSnapshot().value).toBe('dividing');
    expect(e.actor.getSnapshot().context.divide).toMatchObject({ left: 10, right: 10 });
    e.actor.send({ type: 'DIVIDE.LEFT', value: 8.04 });
    expect(e.actor.getSnapshot().context.divide).toMatchObject({ left: 8, right: 12 });
    e.actor.send({ type: 'DIVIDE.RIGHT', value: 19.96 });
    // The right part may leave no less than 0.1 m to the left.
    expect(e.actor.getSnapshot().context.divide).toMatchObject({ left: 0.1, right: 19.9 });
    e.actor.send({ type: 'DIVIDE.LEFT', value: 8 });
    e.actor.send({ type: 'DIVIDE.CONFIRM', catchment: e.catchment });
    expect(e.commits).toHaveLength(1);
    expect(e.catchment.left.map((a) => a.length_m)).toEqual([8, 12]);
    expect(totalArea(e.catchment)).toBeCloseTo(200, 9);
    expect(e.actor.getSnapshot().value).toBe('idle');
  });

  it('cancels the divide window without a change', () => {
    const e = editor(start);
    e.actor.send({ type: 'DIVIDE.OPEN', catchment: e.catchment });
    e.actor.send({ type: 'DIVIDE.CANCEL' });
    expect(e.commits).toEqual([]);
  });

  it('does not open the divide window on an area too short to divide', () => {
    const e = editor({ left: [area(0, 0.1, 1, 1)], right: [] });
    e.actor.send({ type: 'DIVIDE.OPEN', catchment: e.catchment });
    expect(e.actor.getSnapshot().value).toBe('idle');
  });

  it('drags a corner with a preview and commits once, at the release', () => {
    const e = editor({ left: [area(0, 8, 5, 5), area(8, 12, 5, 5)], right: [area(0, 20, 5, 5)] });
    e.actor.send({ type: 'DRAG.START', catchment: e.catchment, ref: { side: 'left', index: 0 }, corner: 'end', alone: false, maxWidth: 10 });
    e.actor.send({ type: 'DRAG.MOVE', width: 6.33 });
    e.actor.send({ type: 'DRAG.MOVE', width: 12 });
    const preview = shownCatchment(e.actor.getSnapshot().context, e.catchment);
    // Clamped at the canvas edge, and the shared corner of the next area follows.
    expect(preview.left[0]!.end_width_m).toBe(10);
    expect(preview.left[1]!.start_width_m).toBe(10);
    expect(e.commits).toEqual([]);
    e.actor.send({ type: 'DRAG.MOVE', width: 7.26 });
    e.actor.send({ type: 'DRAG.END' });
    expect(e.commits).toHaveLength(1);
    expect(e.catchment.left.map((a) => [a.start_width_m, a.end_width_m])).toEqual([
      [5, 7.3],
      [7.3, 5],
    ]);
  });

  it('a shift-drag moves the corner alone; Escape leaves the areas as they were', () => {
    const e = editor({ left: [area(0, 8, 5, 5), area(8, 12, 5, 5)], right: [] });
    e.actor.send({ type: 'DRAG.START', catchment: e.catchment, ref: { side: 'left', index: 1 }, corner: 'start', alone: true, maxWidth: 10 });
    e.actor.send({ type: 'DRAG.MOVE', width: 2 });
    e.actor.send({ type: 'DRAG.END' });
    expect(e.catchment.left.map((a) => [a.start_width_m, a.end_width_m])).toEqual([
      [5, 5],
      [2, 5],
    ]);
    e.actor.send({ type: 'DRAG.START', catchment: e.catchment, ref: { side: 'left', index: 1 }, corner: 'end', alone: false, maxWidth: 10 });
    e.actor.send({ type: 'DRAG.MOVE', width: 9 });
    e.actor.send({ type: 'DRAG.CANCEL' });
    expect(e.commits).toHaveLength(1);
    expect(shownCatchment(e.actor.getSnapshot().context, e.catchment)).toBe(e.catchment);
  });

  it('moves a corner by 0.1 m a key step', () => {
    const e = editor(start);
    for (let i = 0; i < 3; i++) e.actor.send({ type: 'NUDGE', catchment: e.catchment, ref: { side: 'right', index: 0 }, corner: 'start', steps: 1, maxWidth: 10, alone: false });
    e.actor.send({ type: 'NUDGE', catchment: e.catchment, ref: { side: 'right', index: 0 }, corner: 'end', steps: -10, maxWidth: 10, alone: false });
    expect(e.catchment.right[0]).toMatchObject({ start_width_m: 5.3, end_width_m: 4 });
    expect(e.actor.getSnapshot().context.selected).toEqual({ side: 'right', index: 0 });
  });

  it('selects with the keys: along the areas, and across the channel', () => {
    const e = editor({ left: [area(0, 8, 5, 5), area(8, 12, 5, 5)], right: [area(0, 15, 5, 5), area(15, 5, 5, 5)] });
    const selected = () => e.actor.getSnapshot().context.selected;
    e.actor.send({ type: 'SELECT.STEP', catchment: e.catchment, step: 1 });
    expect(selected()).toEqual({ side: 'left', index: 1 });
    e.actor.send({ type: 'SELECT.ACROSS', catchment: e.catchment });
    // The middle of upper area 2 (14 m) lies on lower area 1.
    expect(selected()).toEqual({ side: 'right', index: 0 });
    e.actor.send({ type: 'SELECT.STEP', catchment: e.catchment, step: -1 });
    expect(selected()).toEqual({ side: 'left', index: 1 });
    e.actor.send({ type: 'SELECT.STEP', catchment: e.catchment, step: -1 });
    e.actor.send({ type: 'SELECT.STEP', catchment: e.catchment, step: -1 });
    // Round from the first to the last.
    expect(selected()).toEqual({ side: 'right', index: 1 });
  });

  it('merges only with a neighbour, and keeps the merged area selected', () => {
    const e = editor({ left: [area(0, 8, 4, 5), area(8, 12, 5, 6)], right: [area(0, 20, 5, 5)] });
    e.actor.send({ type: 'MERGE', catchment: e.catchment, with: 'previous' });
    expect(e.commits).toEqual([]);
    e.actor.send({ type: 'MERGE', catchment: e.catchment, with: 'next' });
    expect(e.catchment.left).toEqual([area(0, 20, 4, 6)]);
    expect(coversRun(e.catchment, 20)).toBe(true);
    e.actor.send({ type: 'SELECT', ref: { side: 'right', index: 0 } });
    e.actor.send({ type: 'MERGE', catchment: e.catchment, with: 'next' });
    expect(e.commits).toHaveLength(1);
  });

  it('gives the selected area a surface', () => {
    const e = editor(start);
    e.actor.send({ type: 'SURFACE', catchment: e.catchment, surface: 'gravel' });
    expect(e.catchment.left[0]).toMatchObject({ permeability: 'gravel', permeability_value: 0.6 });
  });

  it('keeps the selection within areas changed elsewhere', () => {
    const e = editor({ left: [area(0, 8, 4, 5), area(8, 12, 5, 6)], right: [] });
    e.actor.send({ type: 'SELECT', ref: { side: 'left', index: 1 } });
    e.actor.send({ type: 'SYNC', catchment: start });
    expect(e.actor.getSnapshot().context.selected).toEqual({ side: 'left', index: 0 });
  });
});
