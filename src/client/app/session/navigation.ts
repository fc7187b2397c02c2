/** Lets non-React code (HTTP client, session) navigate through the router once it is mounted. */
type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let navigateFn: NavigateFn | undefined;

export function bindNavigate(fn: NavigateFn | undefined): void {
  navigateFn = fn;
}

export function navigateTo(to: string, options: { replace?: boolean } = {}): void {
  if (navigateFn) navigateFn(to, options);
  else if (options.replace) window.location.replace(to);
  else window.location.assign(to);
}

/** The current in-app location (path + query), used as the redirect after signing in again. */
export function currentLocation(): string {
  return `${window.location.pathname}${window.location.search}`;
}
