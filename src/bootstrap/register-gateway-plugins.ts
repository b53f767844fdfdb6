import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { GATEWAY_PLUGINS, type GatewayPlugin } from '../application/ports/gateway-plugin.port.js';
import { AgentPlugin } from '../application/gateway/plugins/agent.plugin.js';
import { GenerateTextPlugin } from '../application/gateway/plugins/generate-text.plugin.js';
import { SttPlugin } from '../application/gateway/plugins/stt.plugin.js';
import { TtsPlugin } from '../application/gateway/plugins/tts.plugin.js';

/**
 * The gateway's four plugins (spec "Gateway plugin"). Needs registerAi (chat, speech,
 * transcription) and registerAgents (the agent plugin's mailbox path) first.
 */
export function registerGatewayPlugins(c: DependencyContainer): void {
  const plugins = [GenerateTextPlugin, AgentPlugin, TtsPlugin, SttPlugin] as const;
  for (const plugin of plugins) c.registerSingleton(plugin as never);
  c.register(GATEWAY_PLUGINS, {
    useFactory: instanceCachingFactory((r): readonly GatewayPlugin[] => plugins.map((p) => r.resolve<GatewayPlugin>(p as never))),
  });
}
