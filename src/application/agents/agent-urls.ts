/** `ws(s)://<APP_URL host>/api/agents/:id/ws` (CONTRACT.md section 7). */
export function websocketUrlFor(appUrl: string, agentId: string): string {
  const u = new URL(appUrl);
  return `${u.protocol === 'https:' ? 'wss' : 'ws'}://${u.host}/api/agents/${agentId}/ws`;
}

/** An instance's URL: its resource under the service, `<APP_URL>/api/instance/<userId>`. */
export const instanceUrlFor = (appUrl: string, userId: string): string => `${appUrl.replace(/\/$/, '')}/api/instance/${userId}`;
