import type { ResolveChoice } from '../supervisor/supervisor.ts';
import type { ProcessStatusReport, ProcessView } from './processObject.ts';

/** An answer from the ingress: the handler's value, or the message it was refused with. */
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: string };

/**
 * Calls wakeflow's handlers through a Restate server's ingress, the way `curl` does
 * (`POST <ingress>/<object>/<key>/<handler>` with a JSON body): what `flow start`, `flow event`
 * and the others use, and the conformance tests.
 */
export class IngressClient {
  constructor(readonly baseUrl: string) {}

  async call<T>(path: string, body?: unknown, raw = false): Promise<Answer<T>> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: raw ? (body as string) : JSON.stringify(body) }),
      });
    } catch (e) {
      const reason = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      return { ok: false, status: 0, error: `cannot reach Restate at ${this.baseUrl} (${reason})` };
    }
    const text = await response.text();
    if (response.ok) return { ok: true, value: (text === '' ? null : JSON.parse(text)) as T };
    let error = text;
    try {
      error = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // not JSON: the text as it came
    }
    return { ok: false, status: response.status, error };
  }

  /** Stores a flow/1 or flows/1 file, sent as the text it is. */
  deploy(text: string) {
    return this.call<{ id: string; signature: string }[]>('/wakeflow/deploy', text, true);
  }
  processes() {
    return this.call<string[]>('/wakeflow/processes');
  }
  start(id: string, input: { flow: string; context?: unknown; shareContextWith?: string }) {
    return this.call<ProcessView>(`/process/${encodeURIComponent(id)}/start`, input);
  }
  event(name: string, payload?: unknown, to?: string) {
    return this.call<{ delivered: number }>(`/events/${encodeURIComponent(name)}/emit`, {
      ...(payload === undefined ? {} : { payload }),
      ...(to === undefined ? {} : { to }),
    });
  }
  waitingFor(name: string) {
    return this.call<string[]>(`/events/${encodeURIComponent(name)}/waiting`);
  }
  human(id: string, input: { node: string; input: unknown; trigger?: string }) {
    return this.call<ProcessView>(`/process/${encodeURIComponent(id)}/human`, input);
  }
  setContext(id: string, path: string, value: unknown) {
    return this.call<ProcessView>(`/process/${encodeURIComponent(id)}/setContext`, { path, value });
  }
  status(id: string) {
    return this.call<ProcessStatusReport>(`/process/${encodeURIComponent(id)}/status`);
  }
  rest(id: string) {
    return this.call<{ status: string; due: number | null; events: string[] } | null>(
      `/process/${encodeURIComponent(id)}/rest`,
    );
  }
  journal(id: string) {
    return this.call<unknown[]>(`/process/${encodeURIComponent(id)}/journal`);
  }
  control(id: string, action: 'stop' | 'resume' | 'retry') {
    return this.call<ProcessView>(`/process/${encodeURIComponent(id)}/${action}`);
  }
  resolve(id: string, choice: ResolveChoice) {
    return this.call<ProcessView>(`/process/${encodeURIComponent(id)}/resolve`, { choice });
  }
}
