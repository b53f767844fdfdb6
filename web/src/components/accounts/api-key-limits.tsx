import { Field } from '../field.js';
import { when } from './format.js';
import type { ApiKeyItem, ApiKeyLimits } from './types.js';

/** The four limits as the form holds them: text, empty for "no limit". */
export interface LimitsDraft {
  dailyUnits: string;
  models: string;
  expiresAt: string;
  rateLimit: string;
}

export const NO_LIMITS_DRAFT: LimitsDraft = { dailyUnits: '', models: '', expiresAt: '', rateLimit: '' };

/** An ISO time as a `datetime-local` input's value, in the reader's own time zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A key's limits, ready to edit. */
export const draftOf = (k: ApiKeyLimits): LimitsDraft => ({
  dailyUnits: k.dailyUnits === null ? '' : String(k.dailyUnits),
  models: k.models?.join(', ') ?? '',
  expiresAt: localInput(k.expiresAt),
  rateLimit: k.rateLimit === null ? '' : String(k.rateLimit),
});

/**
 * The draft as POST or PATCH /api/keys take it: an empty field is null (no limit); anything else
 * is sent as typed, and the service says what is wrong with it (400, shown by the form).
 */
export function limitsBody(d: LimitsDraft): ApiKeyLimits {
  const number = (text: string) => (text.trim() === '' ? null : Number(text));
  const models = d.models
    .split(/[,\s]+/)
    .map((m) => m.trim())
    .filter(Boolean);
  const at = d.expiresAt === '' ? null : new Date(d.expiresAt);
  return {
    dailyUnits: number(d.dailyUnits),
    models: models.length ? models : null,
    expiresAt: at === null ? null : Number.isNaN(at.getTime()) ? d.expiresAt : at.toISOString(),
    rateLimit: number(d.rateLimit),
  };
}

/** The four limit fields, labelled for people and for the browser tests. */
export function LimitFields({ draft, onDraft }: { draft: LimitsDraft; onDraft: (d: LimitsDraft) => void }) {
  const set = (field: keyof LimitsDraft) => (v: string) => onDraft({ ...draft, [field]: v });
  return (
    <>
      <Field label="Daily units" type="number" min={1} step={1} inputMode="numeric" value={draft.dailyUnits} onValue={set('dailyUnits')} hint="Units the key may spend a day (UTC), out of yours. Empty: no cap of its own." />
      <Field label="Models" value={draft.models} onValue={set('models')} hint="Model ids it may call, separated by commas; an agent as agent/<id>. Empty: any." />
      <Field label="Expires" type="datetime-local" value={draft.expiresAt} onValue={set('expiresAt')} hint="From then on the key is refused. Empty: never." />
      <Field label="Requests a minute" type="number" min={1} step={1} inputMode="numeric" value={draft.rateLimit} onValue={set('rateLimit')} hint="Empty: only the service's own limits." />
    </>
  );
}

/** A key's limits in words, for its row. */
export function limitsText(k: ApiKeyItem): string {
  const parts = [
    k.models ? `models: ${k.models.join(', ')}` : null,
    k.expiresAt ? `expires ${when(k.expiresAt)}` : null,
    k.rateLimit !== null ? `${k.rateLimit} requests a minute` : null,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'None';
}

/** Today's use of a key: against its cap when it has one. */
export const usedText = (k: ApiKeyItem): string => (k.dailyUnits === null ? `${k.unitsUsed} units` : `${k.unitsUsed} of ${k.dailyUnits} units`);
