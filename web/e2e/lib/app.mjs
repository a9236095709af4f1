// Steps many browser tests share: signing up and in, and the design form.
import { waitForLink } from './mail.mjs';

/** The form field whose label starts with `label` (labels may carry a required star or a unit). */
export const field = (page, label) => page.getByLabel(new RegExp(`^${label}( \\*)?( \\(optional\\))?( ⚠)?$`));

export async function logIn(page, username, password) {
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await calculateButton(page).waitFor();
}

export const calculateButton = (page) => page.getByRole('button', { name: 'Calculate', exact: true });

/** Registers through the sign-up page and confirms through the mailed link; ends on the login form. */
export async function signUpAndConfirm(page, { username, email, password }) {
  await page.goto('/sign-up');
  const values = [
    ['Username', username],
    ['E-mail address', email],
    ['Password', password],
    ['Confirm password', password],
    ['First name', 'Grace'],
    ['Last name', 'Hopper'],
    ['Company', 'Drainage Works Ltd'],
    ['Address', '1 Harbour Road'],
    ['City', 'Leeds'],
    ['Postcode', 'LS1 1AA'],
  ];
  for (const [label, value] of values) await field(page, label).fill(value);
  const country = page.getByLabel(/^Country/);
  await country.locator('option[value="GB"]').waitFor({ state: 'attached' });
  await country.selectOption('GB');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('dialog').getByText('Registration successfully saved').waitFor();
  const link = await waitForLink(email, '/api/auth/confirm/');
  await page.goto(link);
  await page.getByText('Your e-mail address is confirmed. You can now log in.').waitFor();
}

/** Fills a number field and leaves it, which hands the value to the design. */
export async function enter(page, label, value) {
  const input = field(page, label);
  await input.fill(String(value));
  await input.press('Enter');
}

/**
 * The value of a field the form fills in itself (a derived depth, a chosen
 * class): it waits up to 5 s for the field to hold one, as the form sets it
 * a moment after the input it follows, then returns whatever it holds.
 */
export async function derivedValue(locator) {
  await locator.page().waitForFunction((el) => el.value !== '', await locator.elementHandle(), { timeout: 5000 }).catch(() => {});
  return locator.inputValue();
}

/** Chooses a system and enters a run's length and area. */
export async function designRun(page, { system = 'poly-100', length, area }) {
  const select = page.getByLabel('Channel group');
  await select.locator(`option[value="${system}"]`).waitFor({ state: 'attached' });
  await select.selectOption(system);
  await enter(page, 'Channel length', length);
  await enter(page, 'Catchment area', area);
}

/** Acknowledges the cookie notice if it shows (it does once per browser, for 30 days). */
export async function acceptCookies(page) {
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  if (await notice.count()) await notice.getByRole('button', { name: 'OK' }).click();
}
