import { useEffect, useState } from 'react';
import { requestData } from '../../api/http.ts';
import type { ResourceFile } from '../../../shared/resource.ts';
import { nameEntity } from '../form/entityValidators.ts';

/** Schema files are immutable at run time: each is imported once and shared. */
const loaded = new Map<string, ResourceFile>();
const pending = new Map<string, Promise<ResourceFile>>();

export function loadResource(name: string): Promise<ResourceFile> {
  const ready = loaded.get(name);
  if (ready) return Promise.resolve(ready);
  let promise = pending.get(name);
  if (!promise) {
    // The server's copy first (it reflects schema edits without a client rebuild); the bundled
    // copy when the server has no such call (a real BladeX backend) or does not know the name.
    promise = requestData<ResourceFile>('/api/erp-meta/resource', { params: { name }, silent: true })
      .catch(async () => {
        const { resourceLoaders } = await import('../../../generated/resourceLoaders.ts');
        const loader = resourceLoaders[name];
        if (!loader) throw new Error(`unknown resource ${name}`);
        return loader();
      })
      .then((resource) => {
        loaded.set(name, resource);
        nameEntity(resource.entity, name);
        return resource;
      });
    // A failed chunk load is retried by the next caller.
    promise.catch(() => pending.delete(name));
    pending.set(name, promise);
  }
  return promise;
}

/** The already-loaded schema, without waiting (pickers and cells that render often). */
export function peekResource(name: string): ResourceFile | undefined {
  return loaded.get(name);
}

export interface ResourceState {
  resource: ResourceFile | undefined;
  error: unknown;
  loading: boolean;
}

export function useResource(name: string | undefined): ResourceState {
  const [state, setState] = useState<ResourceState>(() => {
    const ready = name ? loaded.get(name) : undefined;
    return { resource: ready, error: undefined, loading: Boolean(name && !ready) };
  });
  useEffect(() => {
    if (!name) {
      setState({ resource: undefined, error: undefined, loading: false });
      return;
    }
    const ready = loaded.get(name);
    if (ready) {
      setState({ resource: ready, error: undefined, loading: false });
      return;
    }
    let active = true;
    setState({ resource: undefined, error: undefined, loading: true });
    loadResource(name).then(
      (resource) => active && setState({ resource, error: undefined, loading: false }),
      (error: unknown) => active && setState({ resource: undefined, error, loading: false }),
    );
    return () => {
      active = false;
    };
  }, [name]);
  return state;
}
