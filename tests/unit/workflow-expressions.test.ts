/**
 * The workflow's ${…} expressions (sequence-flow conditions, assignees) and the BPMN check: the
 * JUEL subset evaluates against variables only, a malformed expression is named in Chinese, and
 * the shipped 请假流程 passes the check while scripts and handler-less tasks do not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkExpression, conditionHolds, evaluateExpression } from '../../src/server/workflow/expressions.ts';
import { parseBpmn } from '../../src/server/workflow/bpmn.ts';
import { candidatesOf } from '../../src/server/workflow/candidates.ts';
import { REPO_ROOT } from '../../src/server/app.ts';

describe('workflow expressions', () => {
  test('conditions over variables: boolean, comparison, words, parentheses, text numbers', () => {
    const vars = { pass: true, days: '5', leaveType: '1', amount: 1200 };
    expect(conditionHolds('${pass}', vars)).toBe(true);
    expect(conditionHolds('${!pass}', vars)).toBe(false);
    expect(conditionHolds('${pass && days > 3}', vars)).toBe(true);
    expect(conditionHolds('${pass and days le 3}', vars)).toBe(false);
    expect(conditionHolds("${leaveType == '1' || amount >= 5000}", vars)).toBe(true);
    expect(conditionHolds('${(amount > 1000) && not (days < 2)}', vars)).toBe(true);
    expect(conditionHolds('${missing}', vars)).toBe(false);
    expect(evaluateExpression('${constructor}', vars)).toBeNull();
    expect(conditionHolds('${pass == true}', { pass: 'true' })).toBe(true);
    expect(evaluateExpression('${startUser}', { startUser: '42' })).toBe('42');
    expect(evaluateExpression('plain', {})).toBe('plain');
  });

  test('no property access and no code: anything else is refused with its reason', () => {
    expect(checkExpression('${pass}')).toBeNull();
    expect(checkExpression('${environment.variables.pass}')).toContain('无法识别的内容');
    expect(checkExpression('${process.exit()}')).toContain('有误');
    expect(checkExpression('${(pass}')).toContain('缺少右括号');
    expect(checkExpression('${pass days}')).toContain('多余的「days」');
    expect(checkExpression('pass')).toContain('应写成');
  });

  test('task handlers resolve from the model and the variables', () => {
    expect(candidatesOf({ id: 't', name: '审批', assignee: '${startUser}' }, { startUser: '7' })).toEqual({ assignee: '7', candidateUsers: '', candidateGroups: '' });
    expect(candidatesOf({ id: 't', name: '审批', candidateUsers: '${deptLeaders}', candidateGroups: 'hr' }, { deptLeaders: '3,4' })).toMatchObject({ candidateUsers: ',3,4,' });
    expect(candidatesOf({ id: 't', name: '审批', candidateUsers: '${deptLeaders}', candidateGroups: 'hr' }, { deptLeaders: '' })).toMatchObject({ candidateUsers: '' });
    expect(candidatesOf({ id: 't', name: '审批', candidateUsers: '1, ${boss}', candidateGroups: 'hr,administrator' }, { boss: '9' })).toEqual({
      assignee: '',
      candidateUsers: ',1,9,',
      candidateGroups: ',hr,administrator,',
    });
  });

  test('the shipped 请假流程 passes the BPMN check', async () => {
    const xml = fs.readFileSync(path.join(REPO_ROOT, 'src/server/workflow/models/leave.bpmn'), 'utf8');
    const { process } = await parseBpmn(xml);
    expect(process.key).toBe('Leave');
    expect(process.userTasks.map((t) => [t.id, t.candidateUsers, t.candidateGroups])).toEqual([
      ['deptAudit', '${deptLeaders}', 'leave_approver,administrator'],
      ['hrAudit', undefined, 'hr,administrator'],
    ]);
    await expect(parseBpmn(xml.replace('<userTask id="hrAudit"', '<serviceTask id="svc" name="调接口" /><userTask id="hrAudit"'))).rejects.toThrow('暂不支持服务任务「调接口」');
    await expect(parseBpmn(xml.replace('<sequenceFlow id="toHrResult" sourceRef="hrAudit" targetRef="hrResult" />', '<sequenceFlow id="toHrResult" sourceRef="hrAudit" targetRef="nowhere" />'))).rejects.toThrow('引用了不存在的元素「nowhere」');
  });
});
