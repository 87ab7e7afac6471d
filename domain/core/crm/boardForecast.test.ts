import type { Deal } from '../../../entities/core/deal';
import type { Pipeline, PipelineStage } from '../../../entities/core/pipeline';
import type { Lean } from '../../../lib/lean';
import { boardOf } from './boardForecast';

const pipeline = { id: 'p1', name: 'Sales' } as Lean<Pipeline>;
const stage = (id: string, probability: number) =>
  ({ id, pipelineId: 'p1', name: id, probability, position: 0 }) as Lean<PipelineStage>;
const deal = (id: string, stageId: string) => ({ id, stageId, pipelineId: 'p1', status: 'open' }) as Lean<Deal>;

describe('pipeline board forecast', () => {
  it('weighs each stage by its probability, per currency, and adds up the stages', () => {
    const board = boardOf(
      pipeline,
      [stage('lead', 10), stage('proposal', 50), stage('won-ish', 100)],
      [
        { stage_id: 'lead', currency: 'EUR', amount: '100000', count: 2 },
        { stage_id: 'proposal', currency: 'EUR', amount: '30000', count: 1 },
        { stage_id: 'proposal', currency: 'USD', amount: '999', count: 1 },
        { stage_id: 'won-ish', currency: 'EUR', amount: '5000', count: 1 },
      ],
      [deal('d1', 'lead'), deal('d2', 'proposal'), deal('d3', 'lead')],
    );
    expect(board.columns.map((c) => [c.stage.id, c.count, c.deals.map((d) => d.id), c.totals])).toEqual([
      ['lead', 2, ['d1', 'd3'], [{ currency: 'EUR', amount: 100000, weighted: 10000, count: 2 }]],
      [
        'proposal',
        2,
        ['d2'],
        [
          { currency: 'EUR', amount: 30000, weighted: 15000, count: 1 },
          // 999 × 50 % = 499.5 cents: rounded per stage, half up.
          { currency: 'USD', amount: 999, weighted: 500, count: 1 },
        ],
      ],
      ['won-ish', 1, [], [{ currency: 'EUR', amount: 5000, weighted: 5000, count: 1 }]],
    ]);
    expect(board.totals).toEqual([
      { currency: 'EUR', amount: 135000, weighted: 30000, count: 4 },
      { currency: 'USD', amount: 999, weighted: 500, count: 1 },
    ]);
  });

  it('sums the rounded stage amounts, not the rounded total', () => {
    // 1 cent at 50 % rounds to 1 in each of two stages: 2, where rounding the pipeline's 2 × 0.5 would give 1.
    const board = boardOf(
      pipeline,
      [stage('a', 50), stage('b', 50)],
      [
        { stage_id: 'a', currency: 'EUR', amount: '1', count: 1 },
        { stage_id: 'b', currency: 'EUR', amount: '1', count: 1 },
      ],
      [],
    );
    expect(board.totals).toEqual([{ currency: 'EUR', amount: 2, weighted: 2, count: 2 }]);
  });

  it('shows empty stages, and no totals without open deals', () => {
    const board = boardOf(pipeline, [stage('a', 0)], [], []);
    expect(board.columns).toEqual([{ stage: stage('a', 0), deals: [], count: 0, totals: [] }]);
    expect(board.totals).toEqual([]);
    expect(
      boardOf(pipeline, [stage('a', 0)], [{ stage_id: 'a', currency: 'EUR', amount: '700', count: 1 }], []).totals,
    ).toEqual([{ currency: 'EUR', amount: 700, weighted: 0, count: 1 }]);
  });
});
