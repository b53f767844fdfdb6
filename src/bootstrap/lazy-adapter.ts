/** The methods of T that answer a promise: the only ones an adapter loaded on first use can stand behind. */
export type AsyncMethodKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

/**
 * A port's adapter whose module is loaded on the first call of one of its methods (docs/decisions/0470):
 * the chain and wallet adapters bring viem and its companions, some 0.8 MB to compile, which a
 * start that never uses them should not pay for. `load` (an `import()` of the adapter's module and
 * the construction of the adapter) runs once; every later call reaches that one instance, so an
 * adapter's own state (caches, per-wallet turns) is kept as if it had been made at start. A load
 * that fails fails that call and is tried again by the next. `eager` is the rest of the port (its
 * data and synchronous methods), given without the adapter's module.
 */
export function lazyAdapter<T, K extends AsyncMethodKeys<T>>(load: () => Promise<Pick<T, K>>, methods: readonly K[], eager: Omit<T, K>): T {
  let loading: Promise<Pick<T, K>> | undefined;
  const adapter = (): Promise<Pick<T, K>> =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const port: Record<PropertyKey, unknown> = { ...eager };
  for (const method of methods) {
    port[method] = async (...args: unknown[]) => {
      const a = await adapter();
      return (a[method] as (...xs: unknown[]) => Promise<unknown>).apply(a, args);
    };
  }
  return port as T;
}
