import type { Allocation, SplitShare } from '../../domain/skills/split.js';

// A stateful skill's stored rows, reached through the unit of work in the acting user's scope
// (RLS: their own rows only). An id that is not a uuid reads as absent.

export interface SplitRule {
  id: string;
  splits: SplitShare[];
  thresholdCents: number;
  pendingCents: number;
  createdAt: Date;
}

export interface SplitExecution {
  id: string;
  ruleId: string;
  amountCents: number;
  allocations: Allocation[];
  createdAt: Date;
}

export interface SplitRepository {
  insertRule(userId: string, r: { splits: SplitShare[]; thresholdCents: number }): Promise<SplitRule>;
  /** Locks the rule for the rest of the transaction, so pending amounts add up under concurrency. */
  getRuleForUpdate(id: string): Promise<SplitRule | null>;
  getRule(id: string): Promise<SplitRule | null>;
  listRules(): Promise<SplitRule[]>;
  setPending(id: string, pendingCents: number): Promise<void>;
  insertExecution(userId: string, e: { ruleId: string; amountCents: number; allocations: Allocation[] }): Promise<SplitExecution>;
  /** Executions of one rule, or of all the user's rules, oldest first. */
  listExecutions(ruleId?: string): Promise<SplitExecution[]>;
}
