import { api } from '../api/client.js';
import { ApiKeysSection } from '../components/accounts/api-keys.js';
import { DeleteAccountSection } from '../components/accounts/delete-account.js';
import { HeartbeatSection } from '../components/accounts/heartbeat.js';
import { NotificationsSection } from '../components/accounts/notifications.js';
import { PasswordSection } from '../components/accounts/password.js';
import { ProfileSection } from '../components/accounts/profile.js';
import type { Profile } from '../components/accounts/types.js';
import { ErrorMessage } from '../components/error-message.js';
import { RequireSession } from '../components/layout.js';
import { useLoad } from '../components/use-async.js';
import '../styles/accounts.css';

/** /settings: profile, notifications, password, API keys, heartbeat, and deleting the account. */
export function SettingsPage() {
  return (
    <RequireSession>
      <Settings />
    </RequireSession>
  );
}

function Settings() {
  const profile = useLoad(() => api.get<Profile>('/api/settings'));
  return (
    <section class="settings">
      <h1>Settings</h1>
      <ErrorMessage error={profile.error} />
      {profile.data === undefined ? (
        profile.loading ? <p aria-busy="true">Loading your settings…</p> : null
      ) : (
        <>
          <ProfileSection profile={profile.data} onSaved={profile.setData} />
          <NotificationsSection profile={profile.data} onSaved={profile.setData} />
          <PasswordSection />
          <ApiKeysSection />
          <HeartbeatSection />
          <DeleteAccountSection />
        </>
      )}
    </section>
  );
}
