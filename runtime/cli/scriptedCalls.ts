import { durationMs } from '../../shared/callRules.ts';
import { quote } from '../../shared/quote.ts';
import type { CallSenderDeps } from '../calls/callSender.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { scenarioAnswer, type ScenarioResponse } from '../calls/scenarioAnswers.ts';
import { scriptedAttempt, type ScriptedAnswer } from '../calls/scriptedAnswer.ts';
import { noSecrets } from '../calls/secrets.ts';
import { pinnedAttempt, pinsFrom, type PinSource } from '../calls/pinnedAnswer.ts';
import { CallLog } from '../report/callLog.ts';
import type { Scenario, ScenarioStep } from '../report/scenario.ts';
import { callWaitsOf } from '../supervisor/callWaits.ts';
import type { Clock } from '../supervisor/clock.ts';
import type { CallOptions } from '../supervisor/options.ts';
import { SupervisorError, type Supervisor } from '../supervisor/supervisor.ts';

type RespondStep = Extract<ScenarioStep, { respond: string }>;

/**
 * How `flow simulate` answers calls (docs/format.md#scenarios): from the scenario's `responses`,
 * on the virtual clock, or by its `respond` steps; nothing is ever sent. The attempt the
 * supervisor would send is replaced whole, so no origin is resolved, no secret read and no
 * socket opened, and the same scenario gives the same answers every run.
 */
export class ScriptedCalls {
  /** Every attempt begun and answered, for the report. */
  readonly log = new CallLog();
  private readonly responses: ScenarioResponse[];
  private readonly pins: PinSource;

  constructor(
    scenario: Scenario,
    private readonly clock: Clock,
  ) {
    this.responses = (scenario.responses ?? []).map(inMs);
    this.pins = pinsFrom(scenario.pins ?? []);
  }

  /** The supervisor's call options: scripted attempts, logged; secrets and allowlist unused. */
  options(): CallOptions {
    const attempt: CallSenderDeps['attempt'] = async (call, _key, _signal, about) => {
      const now = this.clock.now();
      this.log.begun(about.processId, about.wait, about.attempt, now);
      const answer = scenarioAnswer(
        this.responses,
        { trigger: call.trigger, node: about.wait.node },
        about.attempt,
      );
      if (answer) return scriptedAttempt(call, answer, now);
      // The scenario's own answers first, then a pin (docs/decisions.md, "Pins in a scenario").
      const pinned = await pinnedAttempt(this.pins, about.wait, now);
      if (pinned) return { result: pinned };
      // A call neither answers waits, its attempt in flight, for a `respond` step.
      return 'pending';
    };
    return {
      // Never read: `attempt` replaces sending, and with it the allowlist and the secrets.
      secrets: noSecrets,
      allow: allowOrigins(['*']),
      attempt,
      onAttempt: (id, entry, wait, at) => this.log.answered(id, wait, entry, at),
    };
  }

  /**
   * A `respond` step: answers, at this instant, the attempt of the process's call (by its node
   * path or its trigger's id) that waits for one. A call not waiting so is refused, naming it.
   */
  async respond(supervisor: Supervisor, step: RespondStep): Promise<void> {
    const record = await supervisor.mustGet(step.respond);
    const wait = callWaitsOf(record.snapshot).find(
      (w) => w.node === step.node || w.call.trigger === step.node,
    );
    const where = `process ${quote(step.respond)} at ${quote(step.node)}`;
    if (!wait || record.status !== 'waiting')
      throw new SupervisorError(`respond: ${where} is not waiting for a call`);
    // An attempt due at this very instant (the process reached the call in this step or the one
    // before, with no advance since) is sent first: it is the current attempt the step answers.
    const progress = (await supervisor.callProgress(record.id)).find((p) => p.seq === wait.seq);
    if (progress?.due != null && progress.due <= this.clock.now()) {
      await supervisor.sendCallNow(record.id, wait.seq);
      await supervisor.idle();
    }
    const given: ScriptedAnswer =
      step.error !== undefined
        ? { error: step.error }
        : {
            status: step.status!,
            ...(step.body !== undefined ? { body: step.body } : {}),
            ...(step.headers !== undefined ? { headers: step.headers } : {}),
          };
    // The answer comes now, the step's instant, whatever it is (a timeout included).
    const { result } = scriptedAttempt(wait.call, given, this.clock.now());
    if (!(await supervisor.respondCall(record.id, wait.seq, { result })))
      throw new SupervisorError(
        `respond: ${where} has no attempt waiting for an answer; "responses" answers it`,
      );
  }
}

/** A response as the scenario states it, its `after` in milliseconds. */
function inMs(response: NonNullable<Scenario['responses']>[number]): ScenarioResponse {
  if (!('after' in response) || response.after === undefined) return response as ScenarioResponse;
  // Checked with the scenario (scenarioSchema), so it parses.
  return { ...response, after: durationMs(response.after)! };
}
