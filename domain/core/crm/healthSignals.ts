import type { StoredSignal } from '../../../entities/core/healthScore';
import type { TenantContext } from '../../context';

/**
 * The health score's signals. Each signal reads, for a batch of customers, a value between 0 (bad) and 1
 * (healthy), or null when it does not apply to a customer (e.g. deal momentum without open deals). The score is
 *
 *   score = round(100 × Σ(weight × value) / Σ(weight))   over the signals that apply
 *
 * (50 when none applies), and the risk is low at 70 or more, medium from 40 to 69, high below 40. Each stored
 * score keeps its signals with weight, value and the facts behind the value, so a score explains itself.
 *
 * The CRM registers recency, overdue tasks, deal momentum and activity trend (healthScore.ts); invoicing
 * registers its unpaid/overdue invoices signal with registerHealthSignal. A module whose data changes a signal
 * asks for a recomputation with requestHealthRecompute (domain/core/crm/healthScore.ts).
 */
export interface SignalReading {
  /** 0 (bad) to 1 (healthy). */
  value: number;
  /** Why, in words: "last contact 12 days ago". */
  detail: string;
  /** The numbers behind the value. */
  facts: Record<string, number | string | null>;
}

export interface HealthSignal {
  /** Stable key: recency, overdue_tasks, unpaid_invoices ... */
  key: string;
  label: string;
  /** Relative weight (the score divides by the sum of the applicable weights). */
  weight: number;
  /** Readings by customer id; a customer absent from the map (or null) is one the signal does not apply to. */
  compute(ctx: TenantContext, customerIds: string[], now: Date): Promise<Map<string, SignalReading | null>>;
}

const signals = new Map<string, HealthSignal>();

/** Registers a signal (once, at module load). */
export function registerHealthSignal(signal: HealthSignal): void {
  if (!/^[a-z][a-z_]{0,39}$/.test(signal.key)) throw new Error(`health signal ${signal.key}: lowercase letters and _`);
  if (signals.has(signal.key)) throw new Error(`health signal ${signal.key} is registered twice`);
  if (!(signal.weight > 0)) throw new Error(`health signal ${signal.key}: weight must be positive`);
  signals.set(signal.key, signal);
}

export const healthSignals = (): HealthSignal[] => [...signals.values()];

export const riskLevels = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof riskLevels)[number];

export type ScoredSignal = StoredSignal;

export const riskOf = (score: number): RiskLevel => (score >= 70 ? 'low' : score >= 40 ? 'medium' : 'high');

/** The documented formula over the applicable signals' readings. */
export function scoreOf(readings: ScoredSignal[]): { score: number; risk: RiskLevel } {
  const total = readings.reduce((sum, r) => sum + r.weight, 0);
  const score = total
    ? Math.round((100 * readings.reduce((sum, r) => sum + r.weight * Math.min(1, Math.max(0, r.value)), 0)) / total)
    : 50;
  return { score, risk: riskOf(score) };
}
