import { Navigate } from 'react-router';

/**
 * Catch-all inside the signed-in layout. Menu routes are registered from the loaded tree
 * (the guard waits for it), so a path that reaches here is unknown.
 */
export function UnknownRoute() {
  return <Navigate to="/404" replace />;
}
