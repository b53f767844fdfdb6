import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { useSession } from '../../session.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction } from '../use-async.js';
import { CopyButton } from './copy-button.js';
import type { Profile } from './types.js';

/** Profile: name and e-mail (POST /api/settings), whether the e-mail is verified, the referral link. */
export function ProfileSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const { refresh } = useSession();
  const [name, setName] = useState(profile.name);
  const [email, setEmail] = useState(profile.email);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const save = useAction(async () => {
    setNotice(undefined);
    const body: { name?: string; email?: string } = {};
    if (name.trim() !== profile.name) body.name = name.trim();
    if (email.trim().toLowerCase() !== profile.email.toLowerCase()) body.email = email.trim();
    if (!body.name && !body.email) {
      setNotice('Nothing changed.');
      return;
    }
    const saved = await api.post<Profile>('/api/settings', body);
    onSaved(saved);
    setName(saved.name);
    setEmail(saved.email);
    if (body.email) await refresh();
    setNotice(body.email ? 'Profile saved. We sent a link to your new address: open it to verify it.' : 'Profile saved.');
  });
  const [resent, setResent] = useState<string | undefined>(undefined);
  const resend = useAction(async () => {
    const r = await api.post<{ message: string }>('/api/auth/resend-verification', { email: profile.email });
    setResent(r.message);
  });
  const referralLink = `${window.location.origin}/signup?ref=${encodeURIComponent(profile.referralCode)}`;
  return (
    <section class="panel" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save.act();
        }}
      >
        <Field label="Name" value={name} onValue={setName} autocomplete="name" required maxLength={100} />
        <Field label="Email" type="email" value={email} onValue={setEmail} autocomplete="email" required />
        <ErrorMessage error={save.error} />
        {notice ? <Notice>{notice}</Notice> : null}
        <div class="actions">
          <button type="submit" disabled={save.busy}>
            Save profile
          </button>
        </div>
      </form>
      <p>
        {profile.emailVerified ? (
          <span class="status status-running">E-mail verified</span>
        ) : (
          <>
            <span class="status status-error">E-mail not verified</span> Open the link we sent to {profile.email}.{' '}
            <button type="button" class="link" disabled={resend.busy} onClick={() => void resend.act()}>
              Send the link again
            </button>
          </>
        )}
      </p>
      <ErrorMessage error={resend.error} />
      {resent ? <Notice>{resent}</Notice> : null}
      <p>
        Plan: <strong>{profile.plan}</strong>. Credits: <strong>{profile.credits}</strong>. <a href="/pricing">Plans and billing</a>
      </p>
      <div class="referral">
        <Field label="Your referral link" value={referralLink} onValue={() => {}} readOnly hint={`Your code is ${profile.referralCode}. Whoever signs up with it gets credits, and so do you.`} />
        <div class="actions">
          <CopyButton text={referralLink} label="Copy referral link" />
        </div>
      </div>
    </section>
  );
}
