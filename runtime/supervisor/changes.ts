/** Who hears of a change to a process, after it is stored (the app, other tabs). */
export class ChangeListeners {
  private readonly listeners = new Set<(processId: string) => void>();

  on(listener: (processId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(id: string): void {
    for (const l of this.listeners) l(id);
  }
}
