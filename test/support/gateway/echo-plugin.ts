import type { DependencyContainer } from 'tsyringe';
import { ProviderError } from '../../../src/application/ai/ai-provider.errors.js';
import { GATEWAY_PLUGINS, type GatewayCall, type GatewayPlugin, type GatewayResult, type GatewayStreamEvent } from '../../../src/application/ports/gateway-plugin.port.js';
import type { GatewayPluginId } from '../../../src/domain/gateway/gateway-plugin-id.js';

/**
 * A real, small gateway plugin for the route's tests: it answers with what it was given and
 * records who paid. `failing` makes its "provider" fail (a ProviderError, as the real plugins'
 * providers raise), so the route's settlement of a failed call can be seen.
 */
export class EchoPlugin implements GatewayPlugin {
  readonly name = 'echo for tests';
  readonly calls: GatewayCall[] = [];
  failing = false;
  /** A bug rather than a provider failure: a plain Error. */
  crashing = false;

  constructor(readonly id: GatewayPluginId = 'generate-text') {}

  async run(call: GatewayCall): Promise<GatewayResult> {
    this.calls.push(call);
    if (this.failing) throw new ProviderError('fake', 'http', 'the fake provider failed', 503);
    if (this.crashing) throw new Error('a bug in the plugin');
    return { message: `echo ${JSON.stringify(call.input)}` };
  }

  async *stream(call: GatewayCall): AsyncGenerator<GatewayStreamEvent> {
    this.calls.push(call);
    if (this.failing) throw new ProviderError('fake', 'http', 'the fake provider failed', 503);
    yield { type: 'delta', content: 'echo ' };
    yield { type: 'delta', content: JSON.stringify(call.input) };
    yield { type: 'done', result: { message: `echo ${JSON.stringify(call.input)}` } };
  }
}

/** One echo plugin per id given, registered as the gateway's plugins. */
export function echoPlugins(...ids: GatewayPluginId[]) {
  const plugins = Object.fromEntries(ids.map((id) => [id, new EchoPlugin(id)])) as Record<GatewayPluginId, EchoPlugin>;
  return { plugins, register: (c: DependencyContainer) => c.register(GATEWAY_PLUGINS, { useValue: Object.values(plugins) }) };
}
