/** The dialog's two calls: read one record, save it (submit serves add and edit). */
import { ApiError, http } from '../../api/http.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { endpointUrl } from '../common/endpoint.ts';
import { endpointByOp } from '../common/views.ts';
import type { FormLayout } from './layout.ts';
import { formBlockOf, type FormMode, type Values } from './types.ts';

export async function loadRecord(resource: ResourceFile, id: string): Promise<Values> {
  const path = formBlockOf(resource).detailEndpoint ?? endpointByOp(resource, 'detail')?.path ?? 'detail';
  const row = await http.get<Values | null>(endpointUrl(resource, path), { id });
  return row ?? {};
}

function submitPath(resource: ResourceFile, mode: FormMode): string {
  const declared = formBlockOf(resource).submitEndpoint;
  if (declared) return declared;
  const endpoint =
    endpointByOp(resource, 'submit') ??
    (mode === 'add' ? endpointByOp(resource, 'save') : endpointByOp(resource, 'update'));
  return endpoint?.path ?? 'submit';
}

/** Defaults of the laid-out fields for a new record (the entity's `default`). */
export function defaultsOf(layout: FormLayout): Values {
  const values: Values = {};
  for (const spec of layout.specs.values()) if (spec.prop.default !== undefined) values[spec.name] = spec.prop.default;
  return values;
}

/** What is sent: the record as edited, without undefined keys; an edit keeps id and version. */
export function bodyOf(values: Values): Values {
  const body: Values = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) body[key] = value;
  return body;
}

export async function saveRecord(resource: ResourceFile, mode: FormMode, values: Values): Promise<Values> {
  const saved = await http.post<unknown>(endpointUrl(resource, submitPath(resource, mode)), bodyOf(values));
  // BladeX answers a boolean; our server answers the saved row.
  return saved && typeof saved === 'object' ? (saved as Values) : values;
}

/**
 * Field errors of a refused save (HTTP 400 `data.fieldErrors`). Line errors come as
 * `<lines field>.<i>.<field>`; a generic `lines.<i>.<field>` is mapped onto the form's only
 * lines field.
 */
export function fieldErrorsOf(error: unknown, layout: FormLayout): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const data = (error.body as { data?: { fieldErrors?: Record<string, unknown> } } | undefined)?.data;
  const raw = data?.fieldErrors;
  if (!raw || typeof raw !== 'object') return {};
  const linesFields = [...layout.specs.values()].filter((spec) => spec.widget === 'lines').map((spec) => spec.name);
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(raw)) {
    const mapped =
      path.startsWith('lines.') && linesFields.length === 1 && !layout.specs.has('lines')
        ? `${linesFields[0]}${path.slice(5)}`
        : path;
    out[mapped] = String(message);
  }
  return out;
}
