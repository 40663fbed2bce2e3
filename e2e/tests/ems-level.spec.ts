import { expect, test } from '@playwright/test';
import { atPath, signInToStart, snap } from '../support/crew';
import { teams, users } from '../support/demo';

// Spec §2 "EMS Level dialog": opening the protocol assistant asks for the crew member's EMS level first
// when none is chosen and the team has levels (§3 codeVital.emtLevels); the choice is kept per user on
// the device (§3, §9) and not asked again, also after a reload.
test('the EMS Level dialog asks once, before the protocol assistant @tablet', async ({ page }, testInfo) => {
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  const protocols = page.getByRole('link', { name: 'Protocols Ask Question' });
  await protocols.click();

  const dialog = page.getByRole('dialog', { name: 'EMS Level' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(atPath('/start'));
  await expect(dialog.getByRole('radio')).toHaveCount(4);
  for (const level of ['EMR', 'EMT', 'AEMT', 'Paramedic']) {
    await expect(dialog.getByRole('radio', { name: level, exact: true })).not.toBeChecked();
  }
  const save = dialog.getByRole('button', { name: 'Save & Continue' });
  await expect(save).toBeDisabled();
  await dialog.getByRole('radio', { name: 'Paramedic', exact: true }).check();
  await expect(save).toBeEnabled();
  await snap(page, testInfo, '40-ems-level', { fullPage: false });
  await save.click();

  await expect(page).toHaveURL(atPath('/protocol'));
  await expect(dialog).toBeHidden();
  // Kept on the device (sealed in the local store) before the reload below.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const open = indexedDB.open('inbound-local');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const keys = open.result.transaction('values').objectStore('values').getAllKeys();
              keys.onsuccess = () => resolve(keys.result.map(String));
              keys.onerror = () => reject(keys.error);
            };
          }),
      ),
    )
    .toContain('emtLevel');

  // Back on Start, and after a reload: straight to the assistant.
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(atPath('/start'));
  await page.reload();
  await protocols.click();
  await expect(page).toHaveURL(atPath('/protocol'));
  await expect(dialog).toBeHidden();
});
