/** A page on an origin the proxy configuration does not allow gets a clear error in the modal. */
import { authDialog, expect, openLogin, test } from './support/fixtures';

test('given an origin the proxy does not allow, when the modal opens, then it shows a clear error instead of the login methods', async ({ page, stack }) => {
  await openLogin(page, stack.demo.foreign);
  await expect(authDialog(page).getByRole('alert')).toHaveText('This site is not allowed to use this login. Ask the site owner to add its origin.');
  await expect(authDialog(page).getByLabel('Email')).toHaveCount(0);
});
