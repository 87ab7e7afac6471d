import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { Overview } from '../../domain/vr/overviewReport';
import { mapPage, type Page } from '../../lib/pagination';
import { type SessionReport } from '../../domain/vr/sessionReports';
import { VrParticipantView, VrSessionView } from './views';

/** Presenters of VR reports, figures and the AI assistant. */
export class VrSessionReportView extends VrSessionView {
  @JSONSchema({ description: 'From start to end, or to now while the session runs' })
  @IsInt()
  durationSeconds!: number;
  @IsInt() participantsCount!: number;
  @IsInt() completedCount!: number;
  @JSONSchema({ description: 'completedCount / participantsCount (0..1); null without participants' })
  @Nullable()
  @IsNumber()
  completionRate!: number | null;
  @ValidateNested({ each: true }) @Type(() => VrParticipantView) participants!: VrParticipantView[];

  static fromReport(r: SessionReport): VrSessionReportView {
    return {
      ...VrSessionView.from(r.session),
      durationSeconds: r.durationSeconds,
      participantsCount: r.participantsCount,
      completedCount: r.completedCount,
      completionRate: r.completionRate,
      participants: r.participants.map((p) => VrParticipantView.from(p.participant, r.session.simulationSteps)),
    };
  }
}

export class VrSessionReportPageView {
  @ValidateNested({ each: true }) @Type(() => VrSessionReportView) items!: VrSessionReportView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<SessionReport>): VrSessionReportPageView {
    return mapPage(page, VrSessionReportView.fromReport);
  }
}

export class VrFiguresView {
  @IsInt() runs!: number;
  @IsInt() runningRuns!: number;
  @JSONSchema({ description: 'Participations: a user in a run (joined, or seen in telemetry)' })
  @IsInt()
  participants!: number;
  @IsInt() completedParticipants!: number;
  @JSONSchema({ description: 'completedParticipants / participants; null without participants' })
  @Nullable()
  @IsNumber()
  completionRate!: number | null;
  @JSONSchema({ description: 'Mean progress of the participations (0..1)' })
  @Nullable()
  @IsNumber()
  averageProgress!: number | null;
  @JSONSchema({ description: 'Mean duration of the ended runs; null when none ended' })
  @Nullable()
  @IsInt()
  averageDurationSeconds!: number | null;
  @IsInt() events!: number;
}

export class SimulationFiguresView extends VrFiguresView {
  @IsString() simulation!: string;
}

export class RoomFiguresView extends VrFiguresView {
  @IsUUID() roomId!: string;
  @JSONSchema({ description: "The room's name in its latest run" })
  @IsString()
  roomName!: string;
}

export class VrOverviewView {
  @ValidateNested() @Type(() => VrFiguresView) totals!: VrFiguresView;
  @ValidateNested({ each: true }) @Type(() => SimulationFiguresView) bySimulation!: SimulationFiguresView[];
  @ValidateNested({ each: true }) @Type(() => RoomFiguresView) byRoom!: RoomFiguresView[];

  static from(o: Overview): VrOverviewView {
    return { totals: o.totals, bySimulation: o.bySimulation, byRoom: o.byRoom };
  }
}

export class AiToolCallView {
  @IsString() id!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'JSON-encoded arguments' })
  @IsString()
  arguments!: string;
}

export class AiChatView {
  @IsString() text!: string;
  @ValidateNested({ each: true }) @Type(() => AiToolCallView) toolCalls!: AiToolCallView[];
  @IsString() model!: string;
  @Nullable() @IsString() finishReason!: string | null;
}
