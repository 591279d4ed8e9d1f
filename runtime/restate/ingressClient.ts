import type { ResolveChoice } from '../supervisor/supervisor.ts';
import type { ProcessStatusReport, ProcessView } from './processObject.ts';
import type { FlowSummary, ProcessPage, ListFilter } from './wakeflowService.ts';

/**
 * An answer from the ingress: the handler's value, or the message it was refused with. A change
 * sent with an idempotency key also names its invocation, so that a caller can say which one is
 * queued when the endpoint does not answer.
 */
export type Answer<T> = { ok: true; value: T; invocation?: string } | Refusal;

export interface Refusal {
  ok: false;
  status: number;
  error: string;
  invocation?: string;
}

export interface IngressOptions {
  /** How long to wait for an answer, in ms; none by default (the tests, the fault runs). */
  timeoutMs?: number;
  /** The admin API, asked why an invocation is not answered (its last failure). */
  adminUrl?: string;
  /**
   * Headers sent with every request: the workbench's proxy names the ingress it forwards to
   * and passes a hosted deployment's bearer token on (docs/restate.md, "The workbench attached
   * to a server").
   */
  headers?: Record<string, string>;
}

/** How an unanswered call is reported: 0 is "no HTTP answer" (unreachable, or timed out). */
const NO_ANSWER = 0;

/**
 * Calls wakeflow's handlers through a Restate server's ingress, the way `curl` does
 * (`POST <ingress>/<object>/<key>/<handler>` with a JSON body): what `flow start`, `flow event`
 * and the others use, and the conformance tests.
 *
 * A change given an idempotency key is sent (`…/send`, which Restate accepts even while the
 * endpoint is down) and then attached to: sending it again with the same key attaches to the
 * same invocation, so it is applied once and answers with the first answer.
 */
export class IngressClient {
  constructor(
    readonly baseUrl: string,
    readonly options: IngressOptions = {},
  ) {}

  private async request(
    path: string,
    init: RequestInit,
  ): Promise<{ response: Response } | { failed: Refusal }> {
    try {
      const signal =
        this.options.timeoutMs === undefined
          ? undefined
          : AbortSignal.timeout(this.options.timeoutMs);
      return {
        // Joined, not resolved: a base with a path (the workbench's `/ingress` proxy) keeps it.
        response: await fetch(this.baseUrl.replace(/\/+$/, '') + path, {
          ...init,
          headers: { ...this.options.headers, ...(init.headers as Record<string, string>) },
          ...(signal ? { signal } : {}),
        }),
      };
    } catch (e) {
      if ((e as Error).name === 'TimeoutError')
        return {
          failed: {
            ok: false,
            status: NO_ANSWER,
            error: `the endpoint did not answer within ${seconds(this.options.timeoutMs!)}`,
          },
        };
      const reason = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      return {
        failed: {
          ok: false,
          status: NO_ANSWER,
          error: `cannot reach the Restate server at ${this.baseUrl} (${reason}); is it running? (npm run restate)`,
        },
      };
    }
  }

  /** The server asked, as a person named it: through the workbench's proxy, its target. */
  private get server(): string {
    return this.options.headers?.['x-wakeflow-ingress'] ?? this.baseUrl;
  }

  /**
   * An answer that is not JSON did not come from a Restate ingress (a web server, the app's own
   * page, a proxy's error page): said so, rather than as the page's HTML or a parse error.
   */
  private notIngress(status: number, text: string): Refusal {
    const short = text.trim();
    const said = short !== '' && short.length <= 200 && !short.includes('<') ? `: ${short}` : '';
    return {
      ok: false,
      status,
      error: `${this.server} answered HTTP ${status}${said}, not as a Restate ingress answers: is it the ingress URL of a Restate server (port 8080 by default)?`,
    };
  }

  private async answer<T>(response: Response): Promise<Answer<T>> {
    const text = await response.text();
    if (response.ok) {
      if (text === '') return { ok: true, value: null as T };
      try {
        return { ok: true, value: JSON.parse(text) as T };
      } catch {
        return this.notIngress(response.status, text);
      }
    }
    let error: string;
    let source: string | undefined;
    try {
      const parsed = JSON.parse(text) as { message?: string; source?: string };
      error = parsed.message ?? text;
      source = parsed.source;
    } catch {
      return this.notIngress(response.status, text);
    }
    // The ingress itself, not a handler, answers 404 for a service it does not know.
    if (response.status === 404 && source === 'ingress' && /service .* not found/.test(error))
      error = `wakeflow is not registered with the Restate server at ${this.baseUrl}: run \`flow serve\` (docs/restate.md)`;
    return { ok: false, status: response.status, error };
  }

  async call<T>(path: string, body?: unknown, raw = false): Promise<Answer<T>> {
    const sent = await this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: raw ? (body as string) : JSON.stringify(body) }),
    });
    return 'failed' in sent ? sent.failed : this.answer<T>(sent.response);
  }

  /**
   * A change: with a key, sent once and attached to (see the class); without one, a plain call.
   * `attach` waits at most the timeout; when it is reached, the answer names the invocation,
   * which is queued and runs when the endpoint answers.
   */
  async change<T>(path: string, body: unknown, key?: string, raw = false): Promise<Answer<T>> {
    if (key === undefined) return this.call<T>(path, body, raw);
    const sent = await this.request(`${path}/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      ...(body === undefined ? {} : { body: raw ? (body as string) : JSON.stringify(body) }),
    });
    if ('failed' in sent) return sent.failed;
    const accepted = await this.answer<{ invocationId: string }>(sent.response);
    if (!accepted.ok) return accepted;
    const invocation = accepted.value.invocationId;
    const attached = await this.request(`/restate/invocation/${invocation}/attach`, {
      method: 'GET',
    });
    if ('failed' in attached) {
      const why = await this.whyUnanswered(invocation);
      return {
        ...attached.failed,
        invocation,
        error: `${why ?? attached.failed.error}; invocation ${invocation} is queued and will run when it is back`,
      };
    }
    return { ...(await this.answer<T>(attached.response)), invocation };
  }

  /** The invocation's last failure as the admin API reports it ("connection refused"...). */
  private async whyUnanswered(invocation: string): Promise<string | undefined> {
    if (this.options.adminUrl === undefined) return undefined;
    try {
      const response = await fetch(new URL('/query', this.options.adminUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          query: `SELECT last_failure FROM sys_invocation WHERE id = '${invocation.replace(/[^A-Za-z0-9_]/g, '')}'`,
        }),
        signal: AbortSignal.timeout(2000),
      });
      if (!response.ok) return undefined;
      const rows = ((await response.json()) as { rows?: { last_failure?: string | null }[] }).rows;
      const failure = rows?.[0]?.last_failure;
      return failure ? `the endpoint is unreachable (${failure.slice(0, 300)})` : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a flow/1 or flows/1 file, sent as the text it is. */
  deploy(text: string, key?: string) {
    return this.change<{ id: string; signature: string }[]>('/wakeflow/deploy', text, key, true);
  }
  processes() {
    return this.call<string[]>('/wakeflow/processes');
  }
  list(filter: ListFilter) {
    return this.call<ProcessPage>('/wakeflow/list', filter);
  }
  flows() {
    return this.call<FlowSummary[]>('/wakeflow/flows');
  }
  start(
    id: string,
    input: { flow: string; context?: unknown; shareContextWith?: string },
    key?: string,
  ) {
    return this.change<ProcessView>(`/process/${encodeURIComponent(id)}/start`, input, key);
  }
  event(name: string, payload?: unknown, to?: string, key?: string) {
    return this.change<{ delivered: number }>(
      `/events/${encodeURIComponent(name)}/emit`,
      {
        ...(payload === undefined ? {} : { payload }),
        ...(to === undefined ? {} : { to }),
      },
      key,
    );
  }
  waitingFor(name: string) {
    return this.call<string[]>(`/events/${encodeURIComponent(name)}/waiting`);
  }
  human(id: string, input: { node: string; input: unknown; trigger?: string }, key?: string) {
    return this.change<ProcessView>(`/process/${encodeURIComponent(id)}/human`, input, key);
  }
  setContext(id: string, path: string, value: unknown, key?: string) {
    return this.change<ProcessView>(
      `/process/${encodeURIComponent(id)}/setContext`,
      { path, value },
      key,
    );
  }
  status(id: string) {
    return this.call<ProcessStatusReport>(`/process/${encodeURIComponent(id)}/status`);
  }
  rest(id: string) {
    return this.call<{
      status: string;
      due: number | null;
      events: string[];
      callDue?: number | null;
    } | null>(`/process/${encodeURIComponent(id)}/rest`);
  }
  journal(id: string) {
    return this.call<unknown[]>(`/process/${encodeURIComponent(id)}/journal`);
  }
  control(id: string, action: 'stop' | 'resume' | 'retry', key?: string) {
    return this.change<ProcessView>(`/process/${encodeURIComponent(id)}/${action}`, undefined, key);
  }
  resolve(id: string, choice: ResolveChoice, key?: string) {
    return this.change<ProcessView>(`/process/${encodeURIComponent(id)}/resolve`, { choice }, key);
  }
}

/** "10 s", "1.5 s", "500 ms". */
export function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}
