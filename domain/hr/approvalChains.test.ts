import type { ApprovalStepConfig } from '../../entities/hr/approval';
import { chainFor, currentStep, decidesStep, snapshotChain } from './approvalChains';

const MANAGER: ApprovalStepConfig = { kind: 'manager', userId: null };
const HR: ApprovalStepConfig = { kind: 'hr', userId: null };
const BOSS: ApprovalStepConfig = { kind: 'user', userId: 'boss' };

describe('chainFor', () => {
  const chains = [
    { leaveTypeId: null, steps: [MANAGER, HR] },
    { leaveTypeId: 'sick', steps: [HR] },
  ];
  it.each([
    ['paid', [MANAGER, HR]],
    ['sick', [HR]],
  ])('%s follows %o', (type, steps) => expect(chainFor(chains, type)).toEqual(steps));
  it('is empty without chains (one decision)', () => expect(chainFor([], 'paid')).toEqual([]));
});

describe('snapshotChain', () => {
  it.each<[string, ApprovalStepConfig[], { employeeUserId: string | null; managerUserId: string | null }, unknown]>([
    [
      'manager then HR',
      [MANAGER, HR],
      { employeeUserId: 'ann', managerUserId: 'max' },
      [
        { kind: 'manager', userId: 'max' },
        { kind: 'hr', userId: null },
      ],
    ],
    [
      'no manager: HR only',
      [MANAGER, HR],
      { employeeUserId: 'ann', managerUserId: null },
      [{ kind: 'hr', userId: null }],
    ],
    [
      'the named approver is the employee: left out',
      [BOSS, HR],
      { employeeUserId: 'boss', managerUserId: null },
      [{ kind: 'hr', userId: null }],
    ],
    [
      'the manager named again as a user: two steps (each audited)',
      [MANAGER, { kind: 'user', userId: 'max' }, HR],
      { employeeUserId: 'ann', managerUserId: 'max' },
      [
        { kind: 'manager', userId: 'max' },
        { kind: 'user', userId: 'max' },
        { kind: 'hr', userId: null },
      ],
    ],
    [
      'two HR steps in a row are one',
      [HR, HR],
      { employeeUserId: 'ann', managerUserId: null },
      [{ kind: 'hr', userId: null }],
    ],
    ['nothing configured', [], { employeeUserId: 'ann', managerUserId: 'max' }, []],
  ])('%s', (_name, steps, who, expected) => expect(snapshotChain(steps, who)).toEqual(expected));
});

describe('currentStep and decidesStep', () => {
  const chain = snapshotChain([MANAGER, HR], { employeeUserId: 'ann', managerUserId: 'max' });
  it.each([
    [0, 0],
    [1, 1],
    [2, null],
  ])('%d approved: waits for step %s', (approved, step) => expect(currentStep(chain, approved)).toBe(step));
  it('has no step without a chain', () => expect(currentStep([], 0)).toBeNull());
  it.each([
    [0, 'max', false, true],
    [0, 'hugo', true, false], // HR does not decide for the manager
    [1, 'hugo', true, true],
    [1, 'max', false, false],
    [0, null, true, false],
  ])('step %d, caller %s (hr.leave.decide %s): decides %s', (step, userId, holdsDecide, decides) =>
    expect(decidesStep(chain[step], { userId, holdsDecide })).toBe(decides),
  );
});
