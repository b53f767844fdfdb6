import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import { ErrorMessage, Notice } from '../error-message.js';
import { useAction, useLoad } from '../use-async.js';

interface Skill {
  id: string;
  name: string;
  description: string;
  category: string;
}
interface Installed {
  skillId: string;
  installedAt: string;
  enabled?: boolean;
}

/**
 * Heading `Skills`: the skills installed on the agent (GET /api/agent?action=skills) and the
 * catalog (GET /api/skills), each with a button `Install <name>` (POST /api/skills). The plan's
 * skill limit answers 429 with `current` and `limit`, said as a sentence.
 */
export function SkillsPanel({ agentId }: { agentId: string }) {
  const catalog = useLoad(() => api.get<{ skills: Skill[] }>('/api/skills'));
  const installed = useLoad(() => api.get<{ skills: Installed[] }>(`/api/agent?action=skills&agentId=${encodeURIComponent(agentId)}`), [agentId]);
  const [done, setDone] = useState<string | undefined>(undefined);
  const install = useAction(async (skill: Skill) => {
    await api.post('/api/skills', { skillId: skill.id, agentId });
    setDone(skill.name);
    await installed.reload();
  });
  const names = new Map((catalog.data?.skills ?? []).map((s) => [s.id, s.name]));
  const have = new Set((installed.data?.skills ?? []).map((s) => s.skillId));
  return (
    <section class="panel" aria-labelledby="agent-skills-heading">
      <h2 id="agent-skills-heading">Skills</h2>
      <ErrorMessage error={installed.error ?? catalog.error} />
      <h3>Installed</h3>
      {installed.data && installed.data.skills.length === 0 ? <p class="muted">No skills installed yet.</p> : null}
      {installed.data && installed.data.skills.length > 0 ? (
        <ul aria-label="Installed skills">
          {installed.data.skills.map((s) => (
            <li key={s.skillId}>{names.get(s.skillId) ?? s.skillId}</li>
          ))}
        </ul>
      ) : null}
      <ErrorMessage error={install.error} />
      {done ? <Notice>Installed {done}.</Notice> : null}
      {catalog.data ? (
        <details class="skills-details">
          <summary>Skill catalog ({catalog.data.skills.length} skills)</summary>
          <ul class="skills-catalog" aria-label="Skill catalog">
          {catalog.data.skills.map((s) => (
            <li key={s.id}>
              <div>
                <strong>{s.name}</strong> <span class="muted">({s.category})</span>
                <p>{s.description}</p>
              </div>
              {have.has(s.id) ? (
                <span class="muted">Installed</span>
              ) : (
                <button
                  type="button"
                  class="secondary"
                  disabled={install.busy}
                  onClick={() => {
                    setDone(undefined);
                    void install.act(s);
                  }}
                >
                  Install {s.name}
                </button>
              )}
            </li>
          ))}
          </ul>
        </details>
      ) : catalog.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : null}
    </section>
  );
}
