/**
 * Acceptance 1 of the workflow, messages and printing issue: every Workflow and desk call of the
 * spec's catalogue (spec 001 §7 "Workflow, messages, resources": work, model, manager, follow,
 * history-flow-list, leave; desk messages, synergism, templates, notices, user tasks) answers with
 * the contract envelope on both databases: never 404, never 5xx; a bare call that refuses says why
 * in Chinese. What each does with real data is in workflow, bill-approval, messages and
 * user-task suites.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signedIn, type Api } from '../support/client.ts';
import { unanswered, type Call } from '../support/catalogue.ts';

const WORKFLOW_AND_DESK: Call[] = [
  ['GET', '/blade-flow/work/start-list'], ['GET', '/blade-flow/work/claim-list'], ['GET', '/blade-flow/work/todo-list'],
  ['GET', '/blade-flow/work/send-list'], ['GET', '/blade-flow/work/done-list'], ['POST', '/blade-flow/work/claim-task'],
  ['POST', '/blade-flow/work/complete-task'], ['GET', '/blade-flow/model/list'], ['POST', '/blade-flow/model/remove'],
  ['POST', '/blade-flow/model/deploy'], ['GET', '/blade-flow/manager/list'], ['POST', '/blade-flow/manager/change-state'],
  ['POST', '/blade-flow/manager/deploy-upload'], ['POST', '/blade-flow/manager/delete-deployment'], ['GET', '/blade-flow/follow/list'],
  ['POST', '/blade-flow/follow/delete-process-instance'], ['GET', '/blade-flow/process/history-flow-list'],
  ['POST', '/blade-desk/process/leave/start-process'], ['GET', '/blade-desk/process/leave/detail'],
  ['GET', '/blade-desk/messageinfo/selectMessageInfoPage'], ['POST', '/blade-desk/messageinfo/updateMsgInfoReadStatus'],
  ['GET', '/blade-desk/messageinfo/list'], ['GET', '/blade-desk/messageinfo/detail'], ['POST', '/blade-desk/messageinfo/submit'],
  ['POST', '/blade-desk/messageinfo/remove'], ['GET', '/blade-desk/msgsynergism/page'], ['POST', '/blade-desk/msgsynergism/updateReadStatus'],
  ['GET', '/blade-desk/messagetemplate/list'], ['GET', '/blade-desk/messagetemplate/detail'], ['POST', '/blade-desk/messagetemplate/submit'],
  ['POST', '/blade-desk/messagetemplate/remove'], ['POST', '/blade-desk/messagetemplate/changeStatus'], ['GET', '/blade-desk/notice/list'],
  ['GET', '/blade-desk/notice/detail'], ['POST', '/blade-desk/notice/submit'], ['POST', '/blade-desk/notice/remove'],
  ['GET', '/blade-desk/usertask/count'], ['GET', '/blade-desk/usertask/list'], ['POST', '/blade-desk/usertask/finish'],
  ['POST', '/blade-desk/usertask/send'],
];

describe.each(databases())('the Workflow and desk calls of the catalogue ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let admin: Api;
  beforeAll(async () => {
    server = await startTestServer({ databaseUrl });
    admin = await signedIn(server.url);
  });
  afterAll(async () => server?.close());

  test(`all ${WORKFLOW_AND_DESK.length} answer: none 404, none 5xx`, async () => {
    expect(await unanswered(admin, WORKFLOW_AND_DESK)).toEqual([]);
  });
});
