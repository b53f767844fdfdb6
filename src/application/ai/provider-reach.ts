import type { CallProgress } from '../ports/ai-provider.port.js';

/**
 * How far one metered call's provider request got, which decides what a caller who leaves before
 * the end still owes (decision 0419): nothing while no request has gone out; once one has, the
 * vendor may bill its prompt, so the prompt is charged, by the vendor's own count when it gave one
 * (else the metering's estimate). Once any attempt's request has gone out it stays sent, fallback
 * or not: a vendor that failed may still have billed it.
 */
export class ProviderReach implements CallProgress {
  private wentOut = false;
  private counted: number | undefined;

  sent(): void {
    this.wentOut = true;
  }

  promptTokens(tokens: number): void {
    this.counted = tokens;
  }

  get isSent(): boolean {
    return this.wentOut;
  }

  /** The vendor's count of the prompt, when it reported one before the caller left. */
  get vendorPromptTokens(): number | undefined {
    return this.counted;
  }
}
