import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { api, forgetCsrfToken } from './api/client.js';

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

interface SessionState {
  /** undefined while the first GET /api/auth/session is under way. */
  user: SessionUser | null | undefined;
  /** Reads the session again (after sign-in, sign-out, a profile change). */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState>({ user: undefined, refresh: async () => {}, signOut: async () => {} });

export function SessionProvider({ children }: { children: ComponentChildren }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    forgetCsrfToken();
    try {
      const r = await api.get<{ user: SessionUser | null }>('/api/auth/session');
      setUser(r.user);
    } catch {
      setUser(null);
    }
  }, []);
  const signOut = useCallback(async () => {
    try {
      await api.post('/api/auth/signout');
    } finally {
      forgetCsrfToken();
      setUser(null);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return <SessionContext.Provider value={{ user, refresh, signOut }}>{children}</SessionContext.Provider>;
}

export const useSession = () => useContext(SessionContext);
