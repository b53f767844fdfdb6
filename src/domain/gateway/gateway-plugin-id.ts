/** The gateway's plugins (spec "Gateway plugin"): all four need a session or a verified MPP credential. */
export const GATEWAY_PLUGIN_IDS = ['agent', 'generate-text', 'tts', 'stt'] as const;
export type GatewayPluginId = (typeof GATEWAY_PLUGIN_IDS)[number];

/** The plugin used when neither `X-Plugin-Id` nor the body's `plugin` names one. */
export const DEFAULT_GATEWAY_PLUGIN: GatewayPluginId = 'generate-text';

/** The plugins the spec marks as streaming (`Accept: text/event-stream` answers SSE). */
export const STREAMING_GATEWAY_PLUGINS: ReadonlySet<GatewayPluginId> = new Set(['agent', 'generate-text']);

export const isGatewayPluginId = (v: string): v is GatewayPluginId => (GATEWAY_PLUGIN_IDS as readonly string[]).includes(v);
