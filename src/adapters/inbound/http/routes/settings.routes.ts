import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DeleteAccount } from '../../../../application/accounts/delete-account.use-case.js';
import type { ChangePassword } from '../../../../application/accounts/change-password.use-case.js';
import type { GetProfile } from '../../../../application/accounts/get-profile.use-case.js';
import type { Actor } from '../../../../application/auth/actor.js';
import type { UpdateProfile } from '../../../../application/accounts/update-profile.use-case.js';
import { profileBody } from '../presenters/account-presenters.js';
import { changePasswordBody, patchSettingsBody, updateSettingsBody } from '../schemas/accounts.schema.js';
import type { RouteEdge } from './route-context.js';
import { profileResponse } from '../schemas/accounts.responses.js';
import { successBody } from '../schemas/error.schema.js';

export interface SettingsRouteDeps {
  getProfile: GetProfile;
  updateProfile: UpdateProfile;
  changePassword: ChangePassword;
  deleteAccount: DeleteAccount;
}

/** The caller's own profile. Every route acts on the authenticated user only. */
export const settingsRoutes: FastifyPluginAsyncZod<RouteEdge & SettingsRouteDeps> = async (app, { getProfile, updateProfile, changePassword, deleteAccount, cookies }) => {
  const config = { auth: 'required' as const };
  const profile = (actor: Actor) => getProfile.execute(actor).then(profileBody);

  app.get('/api/settings', { schema: { response: { 200: profileResponse } }, config }, async (req) => profile(req.actor!));

  app.post('/api/settings', { schema: { body: updateSettingsBody, response: { 200: profileResponse } }, config }, async (req) => {
    await updateProfile.execute(req.actor!, req.body);
    return profile(req.actor!);
  });

  app.patch('/api/settings', { schema: { body: patchSettingsBody, response: { 200: profileResponse } }, config }, async (req) => {
    await updateProfile.execute(req.actor!, req.body);
    return profile(req.actor!);
  });

  app.post('/api/settings/password', { schema: { body: changePasswordBody, response: { 200: successBody } }, config }, async (req) => {
    await changePassword.execute(req.actor!, req.body);
    return { success: true };
  });

  app.delete('/api/settings', { schema: { response: { 200: successBody } }, config }, async (req, reply) => {
    await deleteAccount.execute(req.actor!);
    cookies.clear(reply);
    return { success: true };
  });
};
