// Signing in on the dashboard's own page, as a person would: the operator with the admin token lands on
// Customers, a customer user on its customer's API Keys.
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../integration/dashboard/dashboard-harness.js';

export async function signInAsOperator(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in as operator' }).click();
  await page.getByRole('heading', { name: 'Customers' }).waitFor();
}

/** Signs the person on the page out, then in as a customer user; resolves on its customer's API Keys page. */
export async function switchToCustomerUser(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: /› API Keys$/ }).waitFor();
}
