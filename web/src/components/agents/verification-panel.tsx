import { useId, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction, useLoad } from '../use-async.js';

interface VerificationRecord {
  verified: boolean;
  verificationType: string | null;
  attestationUid: string | null;
  verifierAddress: string | null;
  verifiedAt: string | null;
}

const TYPES = [
  ['eas', 'EAS attestation'],
  ['walletprovider', 'Wallet signature'],
  ['ens', 'ENS name'],
  ['webauthn', 'Passkey (WebAuthn) with a wallet'],
] as const;

/**
 * Heading `Verification`: the record (GET /api/agents/:id/verify), a form to verify
 * (POST, `verificationType` and the fields it needs) and a button to remove it (DELETE).
 */
export function VerificationPanel({ agentId, host }: { agentId: string; host: string }) {
  const path = `/api/agents/${encodeURIComponent(agentId)}/verify`;
  const record = useLoad(() => api.get<VerificationRecord>(path), [path]);
  const [type, setType] = useState<string>('eas');
  const [uid, setUid] = useState('');
  const [wallet, setWallet] = useState('');
  const [signature, setSignature] = useState('');
  const [ens, setEns] = useState('');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const typeId = useId();
  const verify = useAction(async () => {
    const body: Record<string, string> = { verificationType: type };
    if (uid.trim()) body.attestationUid = uid.trim();
    if (wallet.trim()) body.walletAddress = wallet.trim();
    if (signature.trim()) body.signature = signature.trim();
    if (ens.trim()) body.ensName = ens.trim();
    await api.post(path, body);
    setNotice('The agent is verified.');
    await record.reload();
  });
  const remove = useAction(async () => {
    await api.delete(path);
    setNotice('The verification was removed.');
    await record.reload();
  });
  const r = record.data;
  return (
    <section class="panel" aria-labelledby="agent-verification-heading">
      <h2 id="agent-verification-heading">Verification</h2>
      <ErrorMessage error={record.error} />
      {r ? (
        <dl class="agent-facts">
          <div>
            <dt>Verified</dt>
            <dd>{r.verified ? 'Yes' : 'No'}</dd>
          </div>
          {r.verificationType ? (
            <div>
              <dt>Type</dt>
              <dd>{r.verificationType}</dd>
            </div>
          ) : null}
          {r.attestationUid ? (
            <div>
              <dt>Attestation</dt>
              <dd>
                <code>{r.attestationUid}</code>
              </dd>
            </div>
          ) : null}
          {r.verifierAddress ? (
            <div>
              <dt>Verifier</dt>
              <dd>
                <code>{r.verifierAddress}</code>
              </dd>
            </div>
          ) : null}
          {r.verifiedAt ? (
            <div>
              <dt>Verified at</dt>
              <dd>{new Date(r.verifiedAt).toLocaleString()}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setNotice(undefined);
          void verify.act();
        }}
      >
        <div class="field">
          <label for={typeId}>Verification type</label>
          <select id={typeId} value={type} onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}>
            {TYPES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {type === 'eas' ? <Field label="Attestation UID" value={uid} onValue={setUid} autocomplete="off" hint="The 0x… id of the attestation." /> : null}
        {type !== 'eas' ? (
          <>
            <Field label="Wallet address" value={wallet} onValue={setWallet} autocomplete="off" />
            <Field label="Signature" value={signature} onValue={setSignature} autocomplete="off" hint={`The wallet's signature of the text: Verify agent ${agentId} on ${host}`} />
          </>
        ) : null}
        {type === 'ens' ? <Field label="ENS name" value={ens} onValue={setEns} autocomplete="off" /> : null}
        <div class="actions">
          <button type="submit" disabled={verify.busy}>
            Verify agent
          </button>
          {r?.verified ? (
            <button type="button" class="secondary" disabled={remove.busy} onClick={() => void remove.act()}>
              Remove verification
            </button>
          ) : null}
        </div>
        <ErrorMessage error={verify.error ?? remove.error} />
        {notice ? <Notice>{notice}</Notice> : null}
      </form>
    </section>
  );
}
