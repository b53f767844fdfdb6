import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage } from '../error-message.js';
import { Field } from '../field.js';
import { useAction, useLoad } from '../use-async.js';
import { CopyButton } from './copy-button.js';
import { when } from './format.js';
import type { ApiKeyItem, CreatedApiKey } from './types.js';
import { draftOf, LimitFields, limitsBody, limitsText, NO_LIMITS_DRAFT, usedText, type LimitsDraft } from './api-key-limits.js';

/**
 * API keys (GET/POST/PATCH/DELETE /api/keys): create one, with optional limits, and see its raw
 * value once, in a read-only field with a Copy button; the list never has the raw value, only its
 * preview, with each key's limits and today's use; `Edit limits` changes them.
 */
export function ApiKeysSection() {
  const keys = useLoad(() => api.get<{ keys: ApiKeyItem[] }>('/api/keys').then((r) => r.keys));
  const [name, setName] = useState('');
  const [limits, setLimits] = useState<LimitsDraft>(NO_LIMITS_DRAFT);
  const [created, setCreated] = useState<CreatedApiKey | undefined>(undefined);
  const [editing, setEditing] = useState<{ id: string; name: string; draft: LimitsDraft } | undefined>(undefined);
  const create = useAction(async () => {
    const k = await api.post<CreatedApiKey>('/api/keys', { name: name.trim(), ...limitsBody(limits) });
    setCreated(k);
    setName('');
    setLimits(NO_LIMITS_DRAFT);
    await keys.reload();
  });
  const save = useAction(async () => {
    if (!editing) return;
    await api.patch(`/api/keys/${encodeURIComponent(editing.id)}`, limitsBody(editing.draft));
    setEditing(undefined);
    await keys.reload();
  });
  const remove = useAction(async (id: string) => {
    await api.delete(`/api/keys/${encodeURIComponent(id)}`);
    if (created?.id === id) setCreated(undefined);
    await keys.reload();
  });
  return (
    <section class="panel" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <p class="muted">
        A key lets a program act as you: send it as <code>Authorization: Bearer &lt;key&gt;</code>. Keep it secret, and delete it when it is no longer used.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create.act();
        }}
      >
        <Field label="Key name" value={name} onValue={setName} required maxLength={64} hint="What uses it, e.g. “deploy script”. At most 64 characters." />
        <fieldset>
          <legend>Limits (optional)</legend>
          <LimitFields draft={limits} onDraft={setLimits} />
        </fieldset>
        <ErrorMessage error={create.error} />
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            Create key
          </button>
        </div>
      </form>
      {created ? (
        <div class="new-key" role="group" aria-label="New key">
          <Field label="Your new API key" value={created.key} onValue={() => {}} readOnly hint="Copy it now: it is shown only this once." />
          <div class="actions">
            <CopyButton text={created.key} />
            <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
              I saved it
            </button>
          </div>
        </div>
      ) : null}
      <ErrorMessage error={keys.error ?? remove.error} />
      {keys.data === undefined ? (
        keys.loading ? <p aria-busy="true">Loading your keys…</p> : null
      ) : keys.data.length === 0 ? (
        <p>You have no API keys.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Used today</th>
                <th scope="col">Limits</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.name}</th>
                  <td>
                    <code>{k.keyPreview}</code>
                  </td>
                  <td>{when(k.createdAt)}</td>
                  <td>{when(k.lastUsed)}</td>
                  <td>{usedText(k)}</td>
                  <td>{limitsText(k)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => setEditing({ id: k.id, name: k.name, draft: draftOf(k) })}>
                      Edit limits
                    </button>{' '}
                    <button type="button" class="danger" disabled={remove.busy} onClick={() => void remove.act(k.id)}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <form
          aria-label={`Limits of ${editing.name}`}
          onSubmit={(e) => {
            e.preventDefault();
            void save.act();
          }}
        >
          <h3>Limits of {editing.name}</h3>
          <LimitFields draft={editing.draft} onDraft={(draft) => setEditing({ ...editing, draft })} />
          <ErrorMessage error={save.error} />
          <div class="actions">
            <button type="submit" disabled={save.busy}>
              Save limits
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setEditing(undefined);
                save.setError(undefined);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
