import type { Deal } from '../../../entities/core/deal';
import type { Pipeline, PipelineStage } from '../../../entities/core/pipeline';
import type { Lean } from '../../../lib/lean';

/** Sums of one currency: amount of the open deals, and weighted = amount × probability (integer cents). */
export interface CurrencyTotal {
  currency: string;
  amount: number;
  weighted: number;
  count: number;
}

export interface BoardColumn {
  stage: Lean<PipelineStage>;
  /** The stage's open deals, most recently moved first (at most `perStage`). */
  deals: Lean<Deal>[];
  count: number;
  totals: CurrencyTotal[];
}

export interface Board {
  pipeline: Lean<Pipeline>;
  columns: BoardColumn[];
  totals: CurrencyTotal[];
}

/** The open deals' sum of one stage and currency, as the store reads it (amount: integer cents as text). */
export interface StageSum {
  stage_id: string;
  currency: string;
  amount: string;
  count: number;
}

/**
 * A board's forecast: a stage's weighted amount is round(amount × probability / 100) per currency; the
 * pipeline's totals add up its stages' (weighted: the sum of the stages' rounded amounts), currencies in
 * alphabetical order. Each column holds its stage's deals among `deals`.
 */
export function boardOf(
  pipeline: Lean<Pipeline>,
  stages: Lean<PipelineStage>[],
  sums: StageSum[],
  deals: Lean<Deal>[],
): Board {
  const grand = new Map<string, CurrencyTotal>();
  const columns = stages.map((stage): BoardColumn => {
    const totals = sums
      .filter((s) => s.stage_id === stage.id)
      .map((s) => ({
        currency: s.currency,
        amount: Number(s.amount),
        weighted: Math.round((Number(s.amount) * stage.probability) / 100),
        count: s.count,
      }));
    for (const t of totals) {
      const g = grand.get(t.currency) ?? { currency: t.currency, amount: 0, weighted: 0, count: 0 };
      grand.set(t.currency, {
        currency: t.currency,
        amount: g.amount + t.amount,
        weighted: g.weighted + t.weighted,
        count: g.count + t.count,
      });
    }
    return {
      stage,
      deals: deals.filter((d) => d.stageId === stage.id),
      count: totals.reduce((n, t) => n + t.count, 0),
      totals,
    };
  });
  return { pipeline, columns, totals: [...grand.values()].sort((a, b) => a.currency.localeCompare(b.currency)) };
}
