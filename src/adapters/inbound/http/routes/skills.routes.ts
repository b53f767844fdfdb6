import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AgentSettings } from '../../../../application/ports/agent-settings.port.js';
import type { CallSkill } from '../../../../application/skills/call-skill.use-case.js';
import type { InstallSkill } from '../../../../application/skills/install-skill.use-case.js';
import type { ListSkills } from '../../../../application/skills/list-skills.use-case.js';
import { abortOnClientClose } from '../client-close.js';
import { skillBody } from '../presenters/skill-presenters.js';
import { installSkillBody, skillCallDocumentedBody, skillParams, skillsQuery } from '../schemas/skills.schema.js';
import type { RouteEdge } from './route-context.js';
import { skillCallResponse, skillsResponse } from '../schemas/agents.responses.js';
import { successBody } from '../schemas/error.schema.js';

export interface SkillRouteDeps {
  agentSettings: AgentSettings;
  listSkills: ListSkills;
  installSkill: InstallSkill;
  callSkill: CallSkill;
}

/**
 * /api/skills (spec "Skills"). The catalog is public; installing and calling act for the
 * authenticated caller (CONTRACT.md section 4), within the agents' per-caller budget.
 */
export const skillRoutes: FastifyPluginAsyncZod<RouteEdge & SkillRouteDeps> = async (app, { agentSettings: settings, listSkills, installSkill, callSkill }) => {
  const onRequest = app.rateLimit({ max: settings.rateLimitPerMinute, timeWindow: '1 minute', keyGenerator: (req) => `skills:${req.actor?.userId ?? req.ip}` });
  const config = { auth: 'required' as const };

  app.get('/api/skills', { schema: { querystring: skillsQuery, response: { 200: skillsResponse } }, config: { auth: 'none' } }, async (req) => {
    const { category, featured } = req.query;
    const page = await listSkills.execute({ category: category === 'all' ? undefined : category, featuredOnly: featured === 'true' });
    return { skills: page.skills.map(skillBody), categories: page.categories, featured: page.featured.map(skillBody) };
  });

  app.post('/api/skills', { onRequest, schema: { body: installSkillBody, response: { 200: successBody } }, config }, async (req) => {
    await installSkill.execute(req.actor!, req.body);
    return { success: true };
  });

  // the action's own schema checks the body (CallSkill): documented here, not validated twice
  app.post('/api/skills/:slug', { onRequest, schema: { params: skillParams, response: { 200: skillCallResponse } }, config: { ...config, openapi: { body: skillCallDocumentedBody } } }, async (req, reply) => {
    const result = await callSkill.execute(req.actor!, req.params.slug, req.body, abortOnClientClose(reply));
    return { ...result, success: true };
  });
};
