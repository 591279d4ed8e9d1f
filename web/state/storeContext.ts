import { createContext, useContext, type Context } from 'react';
import { useStore, type StoreApi } from 'zustand';

/**
 * A store made for one workbench and provided through React context, as xyflow provides its
 * own: no module holds it, so each test makes a fresh one and two workbenches never share one.
 * `useSlice(selector)` renders when what it selects changes; `useStoreApi()` gives the store to
 * the handlers and free functions that read it once or change it.
 */
export function storeContext<S>(name: string) {
  const Store = createContext<StoreApi<S> | null>(null);
  const useStoreApi = (): StoreApi<S> => {
    const store = useContext(Store);
    if (!store) throw new Error(`${name} is read outside its provider (shell/WorkbenchProvider)`);
    return store;
  };
  function useSlice<T>(selector: (s: S) => T): T {
    return useStore(useStoreApi(), selector);
  }
  return { Provider: Store.Provider, useStoreApi, useSlice };
}

/** A service (an object that is not state: no one renders on it) provided through context. */
export function serviceContext<T>(name: string): {
  Provider: Context<T | null>['Provider'];
  use: () => T;
} {
  const Service = createContext<T | null>(null);
  return {
    Provider: Service.Provider,
    use: () => {
      const service = useContext(Service);
      if (!service)
        throw new Error(`${name} is used outside its provider (shell/WorkbenchProvider)`);
      return service;
    },
  };
}
