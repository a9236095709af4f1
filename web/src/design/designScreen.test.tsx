import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Root } from '../app/Root';
import { createServices } from '../app/services';
import { memoryUserStore } from '../session/userStore';
import { aUser, fakeFetch } from '../test/fakes';
import { allSystems } from './testSystems';
import type { Results } from './types';

const results: Results = {
  calculated: true,
  configuration: 'single-size',
  system_loading: 'C250',
  largest_channel: 'Polymer 100 Type 10.0',
  flow_velocity: 0.58,
  channel_discharge: 2,
  max_possible_discharge: 4.69,
  percentage_full: 61.7,
  freeboard: 49.7,
  freeboard_percent: 38.3,
  total_system_volume: 0.239,
  channel_internal_width_mm: 100,
  invert_depth_mm: 150,
  overall_depth_mm: 180,
  max_channel_depth_mm: 130,
  max_depth_mm: 80,
  overflowed: false,
  went_super_critical: false,
  segments: [
    {
      channelDescription: 'Polymer 100 Type 10.0',
      length_mm: 20000,
      stepRaise: 0,
      floorChange: 0,
      slices: [0, 5, 10, 15, 20].map((distance_m) => ({ distance_m, flow_l_s: distance_m / 10, depth_mm: 80 - distance_m, invert_level_m: -0.15, top_level_m: -0.02 })),
    },
  ],
  channel: [{ HAN: '10091', description: 'Polymer 100 Type 10.0', count: 20, sort: 1, length_mm: 1000 }],
  // As the catalogue gives poly-100-10-0 (domain/catalogue/data/channels/poly-100.json).
  channels_used: [
    {
      slug: 'poly-100-10-0', name: 'Polymer 100 Type 10.0', count: 20, length_mm: 20000, from_m: 0, to_m: 20,
      width_mm: 100, outer_width_mm: 150, body_height_mm: 180, invert_depth_upstream_mm: 150, invert_depth_downstream_mm: 150,
      shape: { kind: 'u', width_mm: 100, radius_mm: 50 }, max_water_depth_mm: 80,
    },
  ],
};

function renderDesign(userOverrides = {}) {
  window.history.replaceState(null, '', '/');
  window.localStorage.setItem('draindesign.language', 'en');
  let version = 1;
  const user = aUser({ language: 'en', rainfall_units: 'mm/h', ...userOverrides });
  const fake = fakeFetch(({ method, path }) => {
    if (path === '/auth/me/') return { status: 200, body: { user } };
    if (method === 'POST' && path.startsWith('/drainage/document/pdf/')) return { status: 400, body: { error: 'Run 1: The catchment area must be above 0' } };
    if (path === '/drainage/product/') return { status: 200, body: allSystems };
    if (method === 'POST' && path === '/projects/') return { status: 201, body: { id: 'p1', version, runs: [{ id: 'r1', name: 'Run 1', state: 'unconfigured' }] } };
    if (method === 'POST' && path === '/projects/p1/commands') {
      version++;
      return { status: 200, body: { id: 'p1', version, runs: [{ id: 'r1', name: 'Run 1', state: 'ready' }] } };
    }
    if (method === 'POST' && path === '/drainage/calculate/') return { status: 200, body: { results } };
    if (method === 'POST' && path === '/drainage/save/') return { status: 200, body: { saveID: 'p1', runSaveIDs: ['r1'], version } };
    if (method === 'PATCH' && path === '/drainage/user_settings/') return { status: 200, body: { user } };
    return undefined;
  });
  const services = createServices({ fetchFn: fake.fetchFn, store: memoryUserStore(user), live: false });
  render(<Root services={services} />);
  return { ...fake, user: userEvent.setup({ delay: null }) };
}

async function fill(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  await user.type(input, `${value}{Enter}`);
}

describe('design screen', () => {
  it.each([
    [true, 1],
    [false, 0],
  ])('offers RTF documents only with advanced mode (%s)', async (advanced, rtfButtons) => {
    const { user } = renderDesign({ has_advanced_mode: advanced });
    const system = await screen.findByLabelText('Channel group');
    await within(system).findByRole('option', { name: /Polymer 100/ });
    await user.selectOptions(system, 'poly-100');
    await fill(user, 'Channel length', '20');
    await fill(user, 'Catchment area', '144');
    await user.click(screen.getByRole('button', { name: 'Calculate' }));
    await screen.findByRole('heading', { name: 'Design specification' });
    await user.click(screen.getByRole('tab', { name: 'Documents' }));
    expect(await screen.findByRole('button', { name: 'Hydraulic analysis (PDF)' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'All documents' })).toBeEnabled();
    expect(screen.queryAllByRole('button', { name: 'Hydraulic analysis (RTF)' })).toHaveLength(rtfButtons);
    expect(screen.queryAllByRole('button', { name: 'All documents (RTF)' })).toHaveLength(rtfButtons);
    // Spec: a failed document says so, naming the format, with the server's reason.
    await user.click(screen.getByRole('button', { name: 'All documents' }));
    expect(await screen.findByText('Failed to create PDF: Run 1: The catchment area must be above 0')).toBeInTheDocument();
  });

  it('keeps Calculate and the result tabs disabled until the run can be calculated', async () => {
    renderDesign();
    const calculate = await screen.findByRole('button', { name: 'Calculate' });
    expect(calculate).toBeDisabled();
    expect(screen.getByText('Choose a drainage system to calculate.')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Run 1' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Materials list' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'System selection' })).toHaveAttribute('aria-selected', 'true');
  });

  it('designs a run, calculates it and shows the specification, profile and materials', async () => {
    const { user, calls } = renderDesign();
    const system = await screen.findByLabelText('Channel group');
    await within(system).findByRole('option', { name: /Polymer 100/ });
    // Standard mode offers no concrete channel.
    expect(within(system).queryByRole('option', { name: /In-situ Concrete/ })).toBeNull();
    await user.selectOptions(system, 'poly-100');
    expect(screen.getByLabelText('Loading class')).toHaveValue('C250');
    expect(screen.getByLabelText('Grating')).toHaveValue('poly-100-slot-iron');
    await fill(user, 'Channel length', '20');
    await fill(user, 'Catchment area', '144');
    expect(screen.getByLabelText('Catchment depth')).toHaveValue(3.6);

    const calculate = screen.getByRole('button', { name: 'Calculate' });
    expect(calculate).toBeEnabled();
    expect(calculate.className).toContain('button--attention');
    await user.click(calculate);

    expect(await screen.findByRole('heading', { name: 'Design specification' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Run 1' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('row', { name: /Channel discharge 2 l\/s/ })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Hydraulic profile of a 20 m run' })).toBeInTheDocument();
    expect(screen.getByText(/^Drawn to scale from the catalogue dimensions/)).toBeInTheDocument();
    // The drawing's figures are the table's.
    expect(screen.getByRole('img', { name: /Cross-section/ })).toHaveAccessibleName(expect.stringMatching(/100 mm.*150 mm/));
    expect(screen.getByRole('row', { name: /Invert depth at the outlet 150 mm/ })).toBeInTheDocument();
    const body = calls.find((call) => call.path === '/drainage/calculate/')?.body;
    expect(body).toMatchObject({ project_id: 'p1', run_id: 'r1', channel_group: 'poly-100', channel_length_m: 20, drainage_area_m2: 144, advanced: false });

    await user.click(screen.getByRole('tab', { name: 'Materials list' }));
    expect(screen.getByRole('cell', { name: '10091' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Duplicate' })).toBeEnabled();
  });

  it('confirms a save with a status message', async () => {
    const { user } = renderDesign();
    const system = await screen.findByLabelText('Channel group');
    await within(system).findByRole('option', { name: /Polymer 100/ });
    await user.selectOptions(system, 'poly-100');
    await fill(user, 'Channel length', '20');
    await fill(user, 'Catchment area', '144');
    await user.click(screen.getByRole('button', { name: 'Calculate' }));
    await screen.findByRole('heading', { name: 'Design specification' });
    expect(screen.queryByText('Project saved')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = screen.getByRole('dialog', { name: 'Save project' });
    await user.type(within(dialog).getByLabelText(/^Project name/), 'Depot yard');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const status = await screen.findByText('Project saved');
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Save project' })).toBeNull();
  });

  it.each([
    ['GB', '3/4/2025', '03/04/2025'],
    ['US', '4/3/2025', '04/03/2025'],
  ])('writes the project date the way an English user in %s does', async (country, typed, shown) => {
    const { user, calls } = renderDesign({ country: { iso_code: country, name: country } });
    await user.click(await screen.findByText('Project details'));
    const date = screen.getByLabelText('Date');
    await user.type(date, typed);
    await user.tab();
    expect(date).toHaveValue(shown);
    // Stored as a calendar date whichever way it was typed: 3 April 2025.
    expect(JSON.stringify(calls.filter((call) => call.path === '/projects/p1/commands').map((call) => call.body))).toContain('2025-04-03');

    await user.clear(date);
    await user.type(date, '31/31/2025');
    await user.tab();
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/^Enter the date as/)).toBeInTheDocument();
  });

  it('writes the surfaces’ runoff coefficients with the language’s decimal separator', async () => {
    const { user } = renderDesign();
    const surface = await screen.findByLabelText('Surface (permeability)');
    expect(within(surface).getByRole('option', { name: 'Asphalt (0.9)' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Language'), 'de');
    expect(await within(screen.getByLabelText('Oberfläche (Abflussbeiwert)')).findByRole('option', { name: /\(0,9\)$/ })).toBeInTheDocument();
  });

  it('warns of a run longer than 500 m', async () => {
    const { user } = renderDesign();
    const system = await screen.findByLabelText('Channel group');
    await within(system).findByRole('option', { name: /Polymer 100/ });
    await user.selectOptions(system, 'poly-100');
    await fill(user, 'Channel length', '620');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('longer than the recommended 500 m, by 120 m');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('img', { name: 'Longer than 500 m' })).toBeInTheDocument();
  });

  it('shows rainfall in the user’s unit and stores it in mm/h', async () => {
    const { user, calls } = renderDesign({ rainfall_units: 'l/(s*ha)' });
    const rainfall = await screen.findByLabelText('Rainfall intensity');
    expect(rainfall).toHaveValue(139);
    expect(screen.getByText('l/(s·ha)')).toBeInTheDocument();
    const system = screen.getByLabelText('Channel group');
    await within(system).findByRole('option', { name: /Polymer 100/ });
    await user.selectOptions(system, 'poly-100');
    await fill(user, 'Rainfall intensity', '278');
    await vi.waitFor(() => {
      const sent = calls.filter((call) => call.path === '/projects/p1/commands').map((call) => call.body as { fields?: { rainfall?: unknown } });
      expect(sent.some((command) => JSON.stringify(command.fields?.rainfall) === JSON.stringify({ rainfall_mm_per_hr: 100 }))).toBe(true);
    });
  });
});

describe('user settings', () => {
  it('saves what changed, and a new rainfall unit applies to the open project', async () => {
    const { user, calls } = renderDesign({ company: 'Engines Ltd', city: 'Leeds' });
    await screen.findByLabelText('Rainfall intensity');
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'User settings' });
    expect(within(dialog).getByLabelText('Company')).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Company')).toHaveValue('Engines Ltd');
    expect(within(dialog).queryByLabelText(/Country/)).toBeNull();
    expect(within(dialog).queryByText('Default mode')).toBeNull();
    await user.clear(within(dialog).getByLabelText('City'));
    await user.type(within(dialog).getByLabelText('City'), 'York');
    await user.selectOptions(within(dialog).getByLabelText('My rainfall unit'), 'l/s/m2');
    expect(within(dialog).getByLabelText('Rainfall unit of this project')).toHaveValue('l/s/m2');
    // XState warns when an action makes another actor run its actions (issue 16): none may.
    const warn = vi.spyOn(console, 'warn');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));

    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'User settings' })).toBeNull());
    expect(warn.mock.calls.filter(([message]) => String(message).includes('Custom actions'))).toEqual([]);
    warn.mockRestore();
    const patch = calls.find((call) => call.method === 'PATCH' && call.path === '/drainage/user_settings/');
    expect(patch?.body).toEqual({ city: 'York', rainfall_units: 'l/s/m2' });
    expect(screen.getByText('l/s/m²')).toBeInTheDocument();
    expect(screen.getByLabelText('Rainfall intensity')).toHaveValue(0.014);
    await vi.waitFor(() =>
      expect(calls.some((call) => (call.body as { type?: string; rainfall_units?: string } | undefined)?.rainfall_units === 'l/s/m2')).toBe(true),
    );
  });
});

describe('rainfall map and controlled discharge buttons', () => {
  it('shows the rainfall map only to users of the UK region', async () => {
    renderDesign({ country: { iso_code: 'GB', name: 'United Kingdom', region: 'UK' } });
    await screen.findByRole('button', { name: 'Calculate' });
    expect(await screen.findByRole('button', { name: 'Rainfall map' })).toBeInTheDocument();
  });

  it('hides it from everyone else', async () => {
    renderDesign({ country: { iso_code: 'BE', name: 'Belgium', region: 'EU' } });
    await screen.findByLabelText('Rainfall intensity');
    expect(screen.queryByRole('button', { name: 'Rainfall map' })).toBeNull();
  });

  it('offers controlled discharge for the high-capacity system only', async () => {
    const { user } = renderDesign();
    const system = await screen.findByLabelText('Channel group');
    await screen.findByRole('option', { name: /^Polymer 100/ });
    expect(screen.queryByRole('button', { name: 'Controlled discharge…' })).toBeNull();
    await user.selectOptions(system, 'poly-hicap');
    expect(await screen.findByRole('button', { name: 'Controlled discharge…' })).toBeInTheDocument();
    expect(screen.getByText('None')).toBeInTheDocument();
  });
});
