/**
 * Runs a process on bpmn-engine, one step at a time. A step starts a new run or recovers a saved
 * one (`Engine.recover(state)` + `resume()`), signals the user task being completed with the
 * instance's variables, lets the engine go on until every path waits at a user task or has
 * ended, and answers the engine's new state (`getState()`, JSON) for the caller to store in the
 * same transaction as everything else the step changed. Nothing stays in memory between steps,
 * so any API node (or this one after a restart) takes up any instance from the database. An
 * engine is simply dropped after its step: a run that waits holds no timers (models with timers
 * are refused), and `stop()` would wait forever on a run that has ended.
 */
import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { badRequest } from '../errors.ts';
import { engineOptions, MODDLE_OPTIONS, type UserTaskRule } from './bpmn.ts';

/** A user task the run is waiting at. */
export interface Waiting {
  executionId: string;
  activityId: string;
  name: string;
  rule: UserTaskRule;
}

export interface StepResult {
  /** The engine's state after the step (JSON text). */
  state: string;
  /** Every user task the run now waits at (old and new). */
  waiting: Waiting[];
  ended: boolean;
  /** The end event reached last (an instance may end at 审批通过 or 已驳回). */
  endActivityId?: string;
  endActivityName?: string;
}

interface ElementApi {
  id: string;
  name?: string;
  type: string;
  executionId: string;
  owner: { behaviour: Record<string, unknown>; environment: { variables: Record<string, unknown> } };
  signal(message?: unknown): void;
}

interface Watch {
  listener: EventEmitter;
  errors: Error[];
  end?: { id: string; name: string };
}

function watch(): Watch {
  const w: Watch = { listener: new EventEmitter(), errors: [] };
  w.listener.on('activity.end', (api: ElementApi) => {
    if (api.type === 'bpmn:EndEvent') w.end = { id: api.id, name: api.name ?? api.id };
  });
  w.listener.on('activity.error', (error: Error) => w.errors.push(error));
  return w;
}

function ruleOf(api: ElementApi): UserTaskRule {
  const b = api.owner.behaviour;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return { id: api.id, name: api.name ?? api.id, assignee: str(b.assignee), candidateUsers: str(b.candidateUsers), candidateGroups: str(b.candidateGroups) };
}

function failure(error: unknown): Error {
  const message = String((error as Error)?.message ?? error).replace(/^<([^>]+)> no conditional flow taken$/, '流程在「$1」没有满足条件的连线可走');
  return badRequest(`流程执行出错：${message}`);
}

async function settle(engine: Engine, execution: { getPostponed(): unknown[] }, w: Watch, engineErrors: Error[]): Promise<StepResult> {
  // The engine runs synchronously up to the next wait; one turn of the event loop lets any
  // deferred message through before the state is read.
  await new Promise((resolve) => setImmediate(resolve));
  const errors = [...engineErrors, ...w.errors];
  if (errors.length) throw failure(errors[0]);
  const postponed = execution.getPostponed() as ElementApi[];
  const waiting = postponed
    .filter((api) => api.type === 'bpmn:UserTask')
    .map((api) => ({ executionId: api.executionId, activityId: api.id, name: api.name ?? api.id, rule: ruleOf(api) }));
  // Flows into a join and the join itself wait too; a task or event other than a user task never should.
  const stuck = postponed.filter((api) => api.type !== 'bpmn:UserTask' && /(Task|Event)$/.test(String(api.type)));
  if (stuck.length) throw badRequest(`流程执行出错：「${stuck[0].name ?? stuck[0].id}」等待的事件本服务器不支持`);
  const state = JSON.stringify(await engine.getState());
  const ended = !waiting.length && engine.state !== 'running';
  return { state, waiting, ended, endActivityId: w.end?.id, endActivityName: w.end?.name };
}

/** Starts a run of a deployed model with the instance's variables. */
export async function startRun(name: string, xml: string, variables: Record<string, unknown>): Promise<StepResult> {
  const engine = new Engine({ ...engineOptions(name), source: xml, moddleOptions: MODDLE_OPTIONS });
  const errors: Error[] = [];
  engine.on('error', (error: Error) => errors.push(error));
  const w = watch();
  let execution;
  try {
    execution = await engine.execute({ listener: w.listener, variables: { ...variables } });
  } catch (error) {
    throw failure(error);
  }
  return settle(engine, execution, w, errors);
}

/**
 * Recovers a saved run, completes the user task `executionId` with `variables` (merged into the
 * process's variables first, so the gateways after it see them) and runs on.
 */
export async function signalRun(name: string, state: string, executionId: string, variables: Record<string, unknown>): Promise<StepResult> {
  const engine = new Engine(engineOptions(name)).recover(JSON.parse(state));
  const errors: Error[] = [];
  engine.on('error', (error: Error) => errors.push(error));
  const w = watch();
  let execution;
  try {
    execution = await engine.resume({ listener: w.listener });
  } catch (error) {
    throw failure(error);
  }
  const task = (execution.getPostponed() as ElementApi[]).find((api) => api.executionId === executionId);
  if (!task) throw badRequest('流程中找不到该任务，可能已被处理，请刷新后重试');
  Object.assign(task.owner.environment.variables, variables);
  try {
    task.signal({ ...variables });
  } catch (error) {
    throw failure(error);
  }
  return settle(engine, execution, w, errors);
}
