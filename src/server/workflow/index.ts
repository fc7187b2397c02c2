/**
 * Workflow on bpmn-engine (issue 14): process models, deployed definitions, instances and their
 * user tasks, the leave process. See README → Workflow.
 */
import type { Services } from '../services.ts';
import { registerModelHandlers } from './models-api.ts';
import { registerDefinitionHandlers } from './definitions-api.ts';
import { registerInstanceHandlers } from './instances-api.ts';
import { registerWorkHandlers } from './work-api.ts';
import { registerLeaveWorkflow } from './leave.ts';
import { registerBillApproval } from './bill-approval.ts';

export function registerWorkflowHandlers(services: Services) {
  registerModelHandlers(services);
  registerDefinitionHandlers(services);
  registerInstanceHandlers(services);
  registerWorkHandlers(services);
  registerLeaveWorkflow(services);
  registerBillApproval(services);
}
