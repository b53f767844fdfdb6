import type { FastifyReply, FastifyRequest } from 'fastify';

/** Cookie names and attributes: under https they are Secure and carry the __Host- prefix. */
export class SessionCookies {
  readonly session: string;
  readonly csrf: string;

  constructor(private readonly secure: boolean) {
    this.session = secure ? '__Host-session' : 'session';
    this.csrf = secure ? '__Host-csrf' : 'csrf';
  }

  setSession(reply: FastifyReply, token: string, expiresAt: Date): void {
    reply.setCookie(this.session, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.secure, expires: expiresAt });
  }

  /** Readable by the page's script on purpose: it echoes the value in x-csrf-token. */
  setCsrf(reply: FastifyReply, token: string): void {
    reply.setCookie(this.csrf, token, { httpOnly: false, sameSite: 'lax', path: '/', secure: this.secure });
  }

  /**
   * The state of an OAuth sign-in under way, one cookie per provider: it ties the callback to the
   * browser that started the flow. Lax, so it rides along the provider's top-level redirect back.
   */
  setOAuthState(reply: FastifyReply, provider: string, state: string, expiresAt: Date): void {
    reply.setCookie(this.oauthName(provider), state, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.secure, expires: expiresAt });
  }

  oauthState(req: FastifyRequest, provider: string): string | undefined {
    return req.cookies[this.oauthName(provider)];
  }

  clearOAuthState(reply: FastifyReply, provider: string): void {
    reply.clearCookie(this.oauthName(provider), { path: '/', secure: this.secure, sameSite: 'lax', httpOnly: true });
  }

  private oauthName(provider: string): string {
    return `${this.secure ? '__Host-' : ''}oauth_${provider}`;
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.session, { path: '/', secure: this.secure, sameSite: 'lax', httpOnly: true });
    reply.clearCookie(this.csrf, { path: '/', secure: this.secure, sameSite: 'lax' });
  }
}
