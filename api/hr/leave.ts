import type { ModuleMount } from '../http/mount';
import { getSettlement } from '../../domain/hr/getSettlement';
import { settleDeparture } from '../../domain/hr/settleDeparture';
import { SettlementView, settlementDocs } from './settlementViews';
import { accepted, created } from '../http/routes';
import { IdParams } from '../http/dtos';
import { adjustLeaveBalance } from '../../domain/hr/adjustLeaveBalance';
import { cancelLeaveRequest } from '../../domain/hr/cancelLeaveRequest';
import { createLeaveType } from '../../domain/hr/createLeaveType';
import { decideLeaveRequest } from '../../domain/hr/decideLeaveRequest';
import { fileLeaveRequest } from '../../domain/hr/fileLeaveRequest';
import { getLeaveBalance } from '../../domain/hr/getLeaveBalance';
import { listLeaveRequests } from '../../domain/hr/listLeaveRequests';
import { listLeaveTypes } from '../../domain/hr/listLeaveTypes';
import { requestRttGeneration } from '../../domain/hr/requestRttGeneration';
import { updateLeaveType } from '../../domain/hr/updateLeaveType';
import {
  CreateLeaveTypeBody,
  FileLeaveRequestBody,
  LeaveAdjustmentBody,
  LeaveCancellationBody,
  LeaveDecisionBody,
  ListLeaveRequestsQuery,
  RttGenerateBody,
  UpdateLeaveTypeBody,
} from './dtos';
import {
  LedgerEntryView,
  LeaveBalanceView,
  LeaveRequestPageView,
  LeaveRequestView,
  LeaveTypesView,
  LeaveTypeView,
  RttJobView,
} from './views';
import {
  adjustLeaveBalanceDocs,
  cancelLeaveRequestDocs,
  createLeaveTypeDocs,
  decideLeaveRequestDocs,
  fileLeaveRequestDocs,
  generateRttDocs,
  leaveBalanceDocs,
  leaveTypesDocs,
  listLeaveRequestsDocs,
  updateLeaveTypeDocs,
} from './leave.docs';

/** Leave types, requests and decisions, the ledger balance and RTT generation. */
export function leaveRoutes({ routes }: ModuleMount): void {
  const r = routes('HR leave');
  const gate = { access: 'user', module: 'rh' } as const;

  r.get(
    '/api/rh/leave-types',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Leave types',
      description: leaveTypesDocs,
      response: LeaveTypesView,
    },
    async ({ ctx }) => ({ items: (await listLeaveTypes(ctx)).map(LeaveTypeView.from) }),
  );

  r.post(
    '/api/rh/leave-types',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Add a leave type',
      description: createLeaveTypeDocs,
      body: CreateLeaveTypeBody,
      response: LeaveTypeView,
      status: 201,
      errors: { 409: '`leave_type_exists`' },
    },
    async ({ ctx, body }) => LeaveTypeView.from(await createLeaveType(ctx, body)),
  );

  r.patch(
    '/api/rh/leave-types/:id',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Edit or archive a leave type',
      description: updateLeaveTypeDocs,
      params: IdParams,
      body: UpdateLeaveTypeBody,
      response: LeaveTypeView,
    },
    async ({ ctx, params, body }) => LeaveTypeView.from(await updateLeaveType(ctx, params.id, body)),
  );

  r.post(
    '/api/rh/employees/:id/leave-requests',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'File a leave request',
      description: fileLeaveRequestDocs,
      params: IdParams,
      body: FileLeaveRequestBody,
      response: LeaveRequestView,
      status: 201,
      errors: { 403: '`no_employee_record`', 409: '`insufficient_balance`, `leave_overlap`, `leave_type_archived`' },
    },
    async ({ ctx, params, body }) => {
      const request = await fileLeaveRequest(ctx, params.id, body);
      return created(LeaveRequestView.from(request));
    },
  );

  r.get(
    '/api/rh/leave-requests',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'List leave requests',
      description: listLeaveRequestsDocs,
      query: ListLeaveRequestsQuery,
      response: LeaveRequestPageView,
      errors: { 403: '`no_employee_record`', 404: "Another employee's requests asked without hr.leave.decide" },
    },
    async ({ ctx, query }) => LeaveRequestPageView.from(await listLeaveRequests(ctx, query)),
  );

  r.patch(
    '/api/rh/leave-requests/:id/decision',
    {
      ...gate,
      permission: 'hr.leave.decide',
      summary: 'Grant or refuse a leave request',
      description: decideLeaveRequestDocs,
      params: IdParams,
      body: LeaveDecisionBody,
      response: LeaveRequestView,
      errors: { 403: '`own_request`, `not_current_approver`', 409: '`leave_already_decided`' },
    },
    async ({ ctx, params, body }) => LeaveRequestView.from(await decideLeaveRequest(ctx, params.id, body)),
  );

  r.post(
    '/api/rh/leave-requests/:id/cancel',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Cancel a leave request',
      description: cancelLeaveRequestDocs,
      params: IdParams,
      body: LeaveCancellationBody,
      response: LeaveRequestView,
      errors: { 403: '`no_employee_record`', 409: '`invalid_transition`, `leave_started`' },
    },
    async ({ ctx, params, body }) => LeaveRequestView.from(await cancelLeaveRequest(ctx, params.id, body)),
  );

  r.get(
    '/api/rh/employees/:id/leave-balance',
    {
      ...gate,
      permission: 'hr.clock',
      summary: 'Leave balance',
      description: leaveBalanceDocs,
      params: IdParams,
      response: LeaveBalanceView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params }) => LeaveBalanceView.from(await getLeaveBalance(ctx, params.id)),
  );

  r.post(
    '/api/rh/employees/:id/leave-adjustments',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Adjust a leave balance',
      description: adjustLeaveBalanceDocs,
      params: IdParams,
      body: LeaveAdjustmentBody,
      response: LedgerEntryView,
      status: 201,
      errors: { 403: '`own_balance`', 409: '`insufficient_balance`, `leave_type_untracked`' },
    },
    async ({ ctx, params, body }) => created(LedgerEntryView.from(await adjustLeaveBalance(ctx, params.id, body))),
  );

  r.post(
    '/api/rh/employees/:id/settlement',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: "Settle a departed employee's leave",
      description: settlementDocs,
      params: IdParams,
      response: SettlementView,
      status: 201,
      errors: { 409: '`employee_not_left`, `settlement_exists`, `leave_requests_pending`' },
    },
    async ({ ctx, params }) => created(SettlementView.from(await settleDeparture(ctx, params.id))),
  );

  r.get(
    '/api/rh/employees/:id/settlement',
    {
      ...gate,
      permission: 'hr.clock',
      summary: "A departed employee's leave settlement",
      description: 'The frozen settlement (POST .../settlement); 404 until it is made. Members see only their own.',
      params: IdParams,
      response: SettlementView,
      errors: { 403: '`no_employee_record`' },
    },
    async ({ ctx, params }) => SettlementView.from(await getSettlement(ctx, params.id)),
  );

  r.post(
    '/api/rh/rtt/generate',
    {
      ...gate,
      permission: 'hr.employees.manage',
      summary: 'Generate RTT days for a month',
      description: generateRttDocs,
      body: RttGenerateBody,
      response: RttJobView,
      status: 202,
    },
    async ({ ctx, body }) => accepted(await requestRttGeneration(ctx, body.period)),
  );
}
