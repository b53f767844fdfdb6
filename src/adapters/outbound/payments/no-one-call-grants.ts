import type { OneCallGrants } from '../../../application/ports/one-call-grants.port.js';

/** No one-call purchases exist yet (the processor checkout for one call replaces this): every caller without a subscription gets 402. */
export class NoOneCallGrants implements OneCallGrants {
  async consume(): Promise<null> {
    return null;
  }

  async restore(): Promise<void> {}
}
