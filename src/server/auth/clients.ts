import type { Services } from '../services.ts';
import { PLATFORM_TENANT } from '../engine/store.ts';

export interface ClientRecord {
  clientId: string;
  accessTokenValidity: number;
  refreshTokenValidity: number;
  grantTypes: string[];
}

/** `Authorization: Basic base64(clientId:secret)` → the client, or null when absent or wrong. */
export async function authenticateClient(services: Services, header: string | undefined): Promise<ClientRecord | null> {
  if (!header || !/^basic /i.test(header)) return null;
  let decoded: string;
  try {
    decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  const clientId = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const cached = cache.get(header);
  if (cached && Date.now() - cached.at < 5000) return cached.client;
  const rows = await services.store.find(services.m('client'), PLATFORM_TENANT, { where: { clientId } });
  const row = rows[0];
  // clientSecret is a secret field (never returned by reads), so compare it with a direct query.
  const ok =
    row &&
    (await services.store.db
      .selectFrom('blade_client')
      .select('id')
      .where('tenant_id', '=', PLATFORM_TENANT)
      .where('client_id', '=', clientId)
      .where('client_secret', '=', secret)
      .where('is_deleted', '=', 0)
      .where('status', '=', 1)
      .executeTakeFirst());
  const client: ClientRecord | null = ok
    ? {
        clientId,
        accessTokenValidity: Number(row.accessTokenValidity) > 0 ? Number(row.accessTokenValidity) : 3600,
        refreshTokenValidity: Number(row.refreshTokenValidity) > 0 ? Number(row.refreshTokenValidity) : 604800,
        grantTypes: String(row.authorizedGrantTypes ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      }
    : null;
  cache.set(header, { at: Date.now(), client });
  return client;
}

const cache = new Map<string, { at: number; client: ClientRecord | null }>();

export function forgetClients() {
  cache.clear();
}
