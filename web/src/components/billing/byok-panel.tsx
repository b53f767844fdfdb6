import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { Field } from '../field.js';
import { useAction } from '../use-async.js';
import { SelectField } from './select-field.js';
import { BYOK_PROVIDERS } from './types.js';

/**
 * Bring your own key: store a provider key (sealed on the server, never shown back), or remove
 * the stored ones. `onChange` reloads the billing overview, whose `byokEnabled` this shows.
 */
export function ByokPanel({ enabled, onChange }: { enabled: boolean; onChange: () => Promise<void> }) {
  const [provider, setProvider] = useState(BYOK_PROVIDERS[0]!.id);
  const [apiKey, setApiKey] = useState('');
  const [done, setDone] = useState<string | undefined>(undefined);
  const enable = useAction(async () => {
    setDone(undefined);
    const r = await api.post<{ message: string }>('/api/billing', { action: 'enable-byok', provider, apiKey });
    setApiKey('');
    setDone(r.message);
    await onChange();
  });
  const disable = useAction(async () => {
    setDone(undefined);
    const r = await api.post<{ message: string }>('/api/billing', { action: 'disable-byok' });
    setDone(r.message);
    await onChange();
  });
  return (
    <section class="panel" aria-labelledby="byok">
      <h2 id="byok">Your own provider keys</h2>
      <p>
        With your own key, AI calls go to your provider account and use none of your daily units.{' '}
        {enabled ? <strong>Your own key is in use.</strong> : <strong>No key stored: the service's own keys are used.</strong>} Stored keys are never shown again.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void enable.act();
        }}
      >
        <SelectField label="Provider" value={provider} onValue={setProvider} options={BYOK_PROVIDERS} />
        <Field label="API key" type="password" autocomplete="off" value={apiKey} onValue={setApiKey} required />
        <ErrorMessage error={enable.error} />
        <div class="actions">
          <button type="submit" disabled={enable.busy}>
            Save key
          </button>
        </div>
      </form>
      {enabled ? (
        <div class="actions billing-byok-off">
          <button type="button" class="secondary" disabled={disable.busy} onClick={() => void disable.act()}>
            Remove my keys
          </button>
        </div>
      ) : null}
      <ErrorMessage error={disable.error} />
      {done ? <Notice>{done}.</Notice> : null}
    </section>
  );
}
