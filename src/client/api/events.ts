/** Window events between the renderer and the shell (no import of either by the other). */

/** A list action or delete changed a resource's rows; detail: { resource }. */
export const RESOURCE_CHANGED = 'erp:resource-changed';

export function announceChange(resource: string): void {
  window.dispatchEvent(new CustomEvent(RESOURCE_CHANGED, { detail: { resource } }));
}
