import type { ServerConfig } from './config.ts';
import type { Database } from './db/connect.ts';
import type { Registry } from './engine/registry.ts';
import type { Model } from './engine/model.ts';
import { Store } from './engine/store.ts';
import { JwtSigner } from './auth/jwt.ts';
import { Permissions } from './auth/permissions.ts';
import type { Ctx } from './http/context.ts';
import type { Actor, Row } from './engine/store.ts';

export type Handler = (ctx: Ctx, model: Model) => Promise<unknown>;

/**
 * A bill's rule lines (document.lineCheck, 营销活动) checked before the bill is saved: called with
 * the head as it will be stored (its status set by the transition) and the lines as the line
 * resource validated them; refuses with badRequest, and may fill head or line fields.
 */
export type LineCheck = (args: { services: Services; actor: Actor; model: Model; action: string; head: Row; lines: Row[]; existing?: Row }) => Promise<void>;

/** The server's shared parts, built once and handed to every route. */
export class Services {
  store: Store;
  perms: Permissions;
  handlers = new Map<string, Handler>();
  lineChecks = new Map<string, LineCheck>();

  constructor(
    public config: ServerConfig,
    public database: Database,
    public registry: Registry,
    public signer: JwtSigner,
    public log: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void,
  ) {
    this.store = new Store(database);
    for (const model of registry.models.values()) if (model.def.view) this.store.registerView(model.table, model.def.view.tables);
    this.perms = new Permissions(this);
  }

  m(name: string): Model {
    const model = this.registry.models.get(name);
    if (!model) throw new Error(`unknown resource ${name}`);
    return model;
  }

  get internal() {
    return this.registry.internal;
  }

  register(name: string, handler: Handler) {
    if (this.handlers.has(name)) throw new Error(`handler ${name} registered twice`);
    this.handlers.set(name, handler);
  }

  registerLineCheck(name: string, check: LineCheck) {
    if (this.lineChecks.has(name)) throw new Error(`line check ${name} registered twice`);
    this.lineChecks.set(name, check);
  }

  lineCheck(name: string): LineCheck {
    const check = this.lineChecks.get(name);
    if (!check) throw new Error(`line check ${name} is not registered`);
    return check;
  }
}
