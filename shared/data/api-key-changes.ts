// In-process notice of every API key write, published after the write has committed. In the cloud the
// table's stream carries the same news to the authorizer-cache flusher; the local twin's gateway
// listens here to drop its cached authorizer answers, so both follow the path key write -> notice -> flush.

/** What changed: the key item `KEY#<hash>` (a create, an update of any field, or a delete). */
export interface ApiKeyChange {
  keyHash: string;
}

type Listener = (change: ApiKeyChange) => void;

const listeners = new Set<Listener>();

/** Calls `listener` after every key write of this process; returns the unsubscribe function. */
export function onApiKeyChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells every listener; a listener's failure must not turn a committed write into an error. */
export function publishApiKeyChanges(keyHashes: readonly string[]): void {
  for (const keyHash of keyHashes) {
    for (const listener of listeners) {
      try {
        listener({ keyHash });
      } catch {
        // The listener's own concern (the twin logs its failures); the write has happened either way.
      }
    }
  }
}
