/**
 * BPMN 2.0 files: reading and checking one before it is stored or deployed, and the options every
 * bpmn-engine run gets. A model is accepted when it parses without warnings, holds exactly one
 * executable process with a start and an end event, uses only the elements this server executes
 * (events without timers or messages, user tasks and plain tasks, exclusive/parallel/inclusive
 * gateways, sequence flows), every user task names who handles it (flowable:assignee,
 * flowable:candidateUsers or flowable:candidateGroups) and every expression is one the workflow
 * expression language understands. Scripts and service calls are refused: an uploaded file never
 * runs code on the server.
 */
import BpmnModdle, { type ModdleContext, type ModdleElement } from 'bpmn-moddle';
import { badRequest } from '../errors.ts';
import { checkExpression, evaluateExpression } from './expressions.ts';

/** The Flowable attributes a user task may carry (the namespace BladeX models are written in). */
const FLOWABLE = {
  name: 'flowable',
  uri: 'http://flowable.org/bpmn',
  prefix: 'flowable',
  associations: [],
  types: [
    {
      name: 'UserTaskAssignment',
      extends: ['bpmn:UserTask'],
      properties: [
        { name: 'assignee', isAttr: true, type: 'String' },
        { name: 'candidateUsers', isAttr: true, type: 'String' },
        { name: 'candidateGroups', isAttr: true, type: 'String' },
      ],
    },
  ],
};

export const MODDLE_OPTIONS = { flowable: FLOWABLE };

/** Who handles a user task, as written in the model. */
export interface UserTaskRule {
  id: string;
  name: string;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

export interface ProcessInfo {
  /** The process id: the definition's key (Leave). */
  key: string;
  name: string;
  documentation: string;
  userTasks: UserTaskRule[];
}

const ALLOWED = new Set([
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:InclusiveGateway',
  'bpmn:SequenceFlow',
]);
const ARTIFACTS = new Set(['bpmn:TextAnnotation', 'bpmn:Association', 'bpmn:Group']);

const TYPE_NAMES: Record<string, string> = {
  'bpmn:ScriptTask': '脚本任务',
  'bpmn:ServiceTask': '服务任务',
  'bpmn:SendTask': '发送任务',
  'bpmn:ReceiveTask': '接收任务',
  'bpmn:BusinessRuleTask': '业务规则任务',
  'bpmn:SubProcess': '子流程',
  'bpmn:CallActivity': '调用活动',
  'bpmn:IntermediateCatchEvent': '中间捕获事件',
  'bpmn:IntermediateThrowEvent': '中间抛出事件',
  'bpmn:BoundaryEvent': '边界事件',
  'bpmn:EventBasedGateway': '事件网关',
  'bpmn:ComplexGateway': '复杂网关',
};

const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

function label(el: ModdleElement): string {
  return `「${el.name || el.id}」`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** bpmn-moddle's messages, in Chinese (the first line; the element named as it wrote it). */
function moddleMessage(message: string): string {
  const line = String(message).split('\n')[0];
  const rules: [RegExp, string][] = [
    [/^unresolved reference <([^>]*)>/, '引用了不存在的元素「$1」'],
    [/^unparsable content <([^>]*)> detected/, '无法解析的内容 <$1>'],
    [/^unknown type <([^>]*)>/, '未知的元素类型 <$1>'],
    [/^unknown attribute <([^>]*)>/, '未知的属性 $1'],
    [/^missing start tag/, '缺少开始标签'],
    [/^unexpected end of file/, '文件不完整'],
  ];
  for (const [re, text] of rules) if (re.test(line)) return line.replace(re, text).replace(/\s*line: .*/, '');
  return line;
}

/** Parses a BPMN file and checks that this server can run it; the Chinese refusal names the problem. */
export async function parseBpmn(xml: string): Promise<{ context: ModdleContext; process: ProcessInfo }> {
  if (!xml || !xml.trim()) throw badRequest('流程文件内容为空');
  let context: ModdleContext;
  try {
    context = await new BpmnModdle(MODDLE_OPTIONS).fromXML(xml.trim());
  } catch (error) {
    throw badRequest(`流程文件不是有效的BPMN 2.0 XML：${moddleMessage(String((error as Error).message))}`);
  }
  if (context.warnings.length) {
    throw badRequest(`流程文件有无法识别的内容：${moddleMessage(String(context.warnings[0].message))}`);
  }
  const root = context.rootElement;
  if (root.$type !== 'bpmn:Definitions') throw badRequest('流程文件的根元素应为BPMN definitions');
  const processes = ((root.rootElements as ModdleElement[] | undefined) ?? []).filter((e) => e.$type === 'bpmn:Process' && e.isExecutable !== false);
  if (processes.length !== 1) throw badRequest(processes.length ? '一个流程文件只能包含一个可执行流程' : '流程文件中没有可执行的流程（process）');
  const proc = processes[0];
  const key = String(proc.id ?? '');
  if (!KEY_PATTERN.test(key)) throw badRequest('流程标识（process id）只能由字母、数字、下划线、点和横线组成，以字母或下划线开头，最长64个字符');
  const elements = (proc.flowElements as ModdleElement[] | undefined) ?? [];
  const problems: string[] = [];
  for (const el of elements) {
    if (!ALLOWED.has(el.$type)) {
      problems.push(`暂不支持${TYPE_NAMES[el.$type] ?? el.$type.replace('bpmn:', '')}${label(el)}`);
      continue;
    }
    const defs = (el.eventDefinitions as ModdleElement[] | undefined) ?? [];
    if (defs.some((d) => d.$type !== 'bpmn:TerminateEventDefinition')) problems.push(`暂不支持带定时、消息或信号定义的事件${label(el)}`);
    if (el.$type === 'bpmn:SequenceFlow') {
      const condition = el.conditionExpression as ModdleElement | undefined;
      if (condition) {
        if (condition.language) problems.push(`连线${label(el)}的条件不能是脚本，请写成 \${…} 表达式`);
        else {
          const problem = checkExpression(String(condition.body ?? ''));
          if (problem) problems.push(`连线${label(el)}的条件${problem}`);
        }
      }
    }
  }
  for (const el of (proc.artifacts as ModdleElement[] | undefined) ?? []) {
    if (!ARTIFACTS.has(el.$type)) problems.push(`暂不支持${el.$type.replace('bpmn:', '')}${label(el)}`);
  }
  if (!elements.some((e) => e.$type === 'bpmn:StartEvent')) problems.push('流程缺少开始事件');
  if (!elements.some((e) => e.$type === 'bpmn:EndEvent')) problems.push('流程缺少结束事件');
  const userTasks: UserTaskRule[] = [];
  for (const el of elements.filter((e) => e.$type === 'bpmn:UserTask')) {
    const rule: UserTaskRule = {
      id: String(el.id),
      name: text(el.name) ?? String(el.id),
      assignee: text(el.assignee),
      candidateUsers: text(el.candidateUsers),
      candidateGroups: text(el.candidateGroups),
    };
    if (!rule.assignee && !rule.candidateUsers && !rule.candidateGroups) {
      problems.push(`用户任务${label(el)}未指定办理人（flowable:assignee、flowable:candidateUsers 或 flowable:candidateGroups）`);
    }
    for (const value of [rule.assignee, ...(rule.candidateUsers ?? '').split(','), ...(rule.candidateGroups ?? '').split(',')]) {
      if (value && value.includes('${')) {
        const problem = checkExpression(value.trim());
        if (problem) problems.push(`用户任务${label(el)}的办理人${problem}`);
      }
    }
    userTasks.push(rule);
  }
  if (problems.length) throw badRequest(`流程文件不能部署：${problems.slice(0, 5).join('；')}${problems.length > 5 ? ` 等${problems.length}处` : ''}`);
  const docs = (proc.documentation as ModdleElement[] | undefined) ?? [];
  return {
    context,
    process: { key, name: text(proc.name) ?? key, documentation: docs.map((d) => String(d.text ?? '')).join('\n').trim(), userTasks },
  };
}

/** Expressions resolve against the process's variables only (no property access, no code). */
const expressions = {
  resolveExpression(expression: string, from?: { environment?: { variables?: Record<string, unknown> } }) {
    try {
      return evaluateExpression(expression, from?.environment?.variables ?? {});
    } catch {
      return undefined;
    }
  },
};

/** No script ever runs: a script element that slipped past the check fails instead. */
const scripts = {
  register() {
    return undefined;
  },
  getScript() {
    return undefined as never;
  },
};

/** Options of every engine this server builds (a new run or a recovered one). */
export function engineOptions(name: string) {
  return { name, expressions, scripts };
}
