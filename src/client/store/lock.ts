import { create } from 'zustand';
import { getStore, removeStore, setStore } from './storage.ts';

/** Lock screen state; stored so that a locked screen stays locked after a reload. */
interface LockState {
  locked: boolean;
  /** Only the password's hash is kept (md5 hex), so the lock password is not readable from storage. */
  lock: (passwordHash: string) => void;
  /** Unlocks when the hash matches; returns whether it did. */
  unlock: (passwordHash: string) => boolean;
  reset: () => void;
}

export const useLock = create<LockState>((set) => ({
  locked: getStore<boolean>('isLock') === true,
  lock: (passwordHash) => {
    setStore('lockPasswd', passwordHash);
    setStore('isLock', true);
    set({ locked: true });
  },
  unlock: (passwordHash) => {
    if (getStore<string>('lockPasswd') !== passwordHash) return false;
    removeStore('isLock');
    removeStore('lockPasswd');
    set({ locked: false });
    return true;
  },
  reset: () => {
    removeStore('isLock');
    removeStore('lockPasswd');
    set({ locked: false });
  },
}));
