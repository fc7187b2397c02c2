import { useRef, type ReactElement } from 'react';
import { UNSAFE_LocationContext, useLocation, useNavigationType, useOutlet, type Location } from 'react-router';
import { useTabs } from '../../store/tabs.ts';
import { website } from '../website.ts';

interface CachedPage {
  element: ReactElement;
  location: Location;
}

/**
 * Renders the page of every open tab and hides all but the active one, so switching tabs keeps
 * what the user typed (like Saber's keep-alive). Hidden pages stay mounted — their effects are
 * not re-run when the tab is shown again — and each keeps seeing its own location.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const navigationType = useNavigationType();
  const tabs = useTabs((s) => s.tabs);
  const cache = useRef(new Map<string, CachedPage>());
  const currentKey = `${location.pathname}${location.search}`;
  const tabKeys = new Set(tabs.map((tab) => tab.key));

  // The current page is cached when it has (or will get) a tab; a refused 16th page is not shown.
  const admitted = tabKeys.has(currentKey) || tabs.length < website.maxTabs;
  if (outlet && admitted) cache.current.set(currentKey, { element: outlet, location });
  for (const key of [...cache.current.keys()]) {
    if (key !== currentKey && !tabKeys.has(key)) cache.current.delete(key);
  }

  return [...cache.current.entries()].map(([key, page]) => (
    // The shown page fills the content area, so a list's grid can take the height left below its search form.
    <div key={key} data-page-key={key} style={key === currentKey ? { height: '100%' } : { display: 'none' }}>
      <UNSAFE_LocationContext.Provider value={{ location: page.location, navigationType }}>
        {page.element}
      </UNSAFE_LocationContext.Provider>
    </div>
  ));
}
