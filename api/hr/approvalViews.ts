import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDateString, IsIn, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  approverKinds,
  MAX_APPROVAL_STEPS,
  type HrApprovalChain,
  type HrApprovalDelegation,
} from '../../entities/hr/approval';
import type { ApprovalStepSnapshot } from '../../entities/hr/leave';
import { Nullable } from '../http/nullable';
import { isoTime } from '../http/present';

/** The bodies and answers of the approval chain routes, and the chain a request shows. */

const KIND_DOCS =
  "manager: the employee's manager (PATCH /api/rh/employees/{id}, managerId); hr: any holder of hr.leave.decide; user: the member userId names";

export class ApprovalStepBody {
  @JSONSchema({ description: KIND_DOCS }) @IsIn(approverKinds) kind!: (typeof approverKinds)[number];
  @JSONSchema({ description: 'The member who decides a user step (only for user)', type: ['string', 'null'] })
  @IsOptional()
  @IsUUID()
  userId?: string | null;
}

export class SetApprovalChainBody {
  @JSONSchema({
    description: 'The leave type this chain is for; null or absent: every type without its own',
    type: ['string', 'null'],
  })
  @IsOptional()
  @IsUUID()
  leaveTypeId?: string | null;
  @JSONSchema({ description: `The ordered steps (at most ${MAX_APPROVAL_STEPS}); [] removes the chain` })
  @IsArray()
  @ArrayMaxSize(MAX_APPROVAL_STEPS)
  @ValidateNested({ each: true })
  @Type(() => ApprovalStepBody)
  steps!: ApprovalStepBody[];
}

export class ApprovalStepView {
  @JSONSchema({ description: KIND_DOCS }) @IsIn(approverKinds) kind!: string;
  @JSONSchema({ description: 'The account deciding it (null for hr: any holder of hr.leave.decide)' })
  @Nullable()
  @IsUUID()
  userId!: string | null;

  static from(s: ApprovalStepSnapshot): ApprovalStepView {
    return { kind: s.kind, userId: s.userId ?? null };
  }
}

export class ApprovalChainView {
  @JSONSchema({ description: 'null: the chain of every type without its own' })
  @Nullable()
  @IsUUID()
  leaveTypeId!: string | null;
  @ValidateNested({ each: true }) @Type(() => ApprovalStepView) steps!: ApprovalStepView[];
  @Nullable() @IsUUID() updatedBy!: string | null;
  @IsDateString() updatedAt!: string;

  static from(c: HrApprovalChain): ApprovalChainView {
    return {
      leaveTypeId: c.leaveTypeId ?? null,
      steps: c.steps.map(ApprovalStepView.from),
      updatedBy: c.updatedBy ?? null,
      updatedAt: isoTime(c.updatedAt),
    };
  }
}

export class ApprovalChainsView {
  @ValidateNested({ each: true }) @Type(() => ApprovalChainView) items!: ApprovalChainView[];
}

export class DelegationView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'The approver whose steps are delegated' }) @IsUUID() fromUserId!: string;
  @JSONSchema({ description: 'The member deciding them' }) @IsUUID() toUserId!: string;
  @JSONSchema({ format: 'date' }) @IsDateString() startsOn!: string;
  @JSONSchema({ format: 'date' }) @IsDateString() endsOn!: string;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;

  static from(d: HrApprovalDelegation): DelegationView {
    return {
      id: d.id,
      fromUserId: d.fromUserId,
      toUserId: d.toUserId,
      startsOn: d.startsOn,
      endsOn: d.endsOn,
      createdBy: d.createdBy ?? null,
      createdAt: isoTime(d.createdAt),
    };
  }
}

export class DelegationsView {
  @ValidateNested({ each: true }) @Type(() => DelegationView) items!: DelegationView[];
}
