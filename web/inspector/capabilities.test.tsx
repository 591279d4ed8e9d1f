import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fakeWorkbenchRuntime, NO_CAPABILITIES } from '../../test-support/fakeWorkbenchRuntime.ts';
import { PinAnswer } from '../calls/CallPin.tsx';
import type { Capabilities } from '../runtime/workbenchRuntime.ts';
import { CallSettingsEntry } from '../shell/CallSettingsEntry.tsx';
import { TooltipProvider } from '../ui/Tooltip.tsx';
import { createWorkbench, WorkbenchProvider } from '../shell/WorkbenchProvider.tsx';
import { ClockControls } from './ClockControls.tsx';
import { RetentionSetting } from './RetentionSetting.tsx';

const ALL: Capabilities = {
  virtualClock: true,
  callSettings: true,
  pins: true,
  retention: true,
  stepping: true,
  fork: true,
  deploy: true,
};

/** A view rendered in a workbench whose runtime opened with these capabilities. */
function shown(view: ReactElement, capabilities: Capabilities): string {
  const parts = createWorkbench();
  parts.connection.opened(fakeWorkbenchRuntime({ capabilities }));
  parts.runtimeState.setState({ ready: true });
  // A render to markup reads a store's initial state (useSyncExternalStore's server snapshot);
  // this view of the store has it read what the store holds now, as a page does.
  const runtimeState = { ...parts.runtimeState, getInitialState: parts.runtimeState.getState };
  return renderToStaticMarkup(
    <WorkbenchProvider parts={{ ...parts, runtimeState }}>
      <TooltipProvider>{view}</TooltipProvider>
    </WorkbenchProvider>,
  );
}

/** The reason as Unavailable shows it: a note, in the feature's place. */
const note = (reason: string) => `<p role="note" class="wf-unavailable">${reason}</p>`;

const pinAnswer = createElement(PinAnswer, {
  trigger: 'call',
  answer: { status: 200, headers: {}, body: '' },
});
const callSettingsEntry = createElement(CallSettingsEntry);

// docs/decisions.md, "Capabilities say why": a capability given as a reason hides its control
// and shows the reason instead; given as true, the control is there and no note is.
describe('a capability the runtime lacks hides its control and says why', () => {
  it('virtualClock: no clock mode nor advance, the reason instead; the time still shows', () => {
    const off = shown(createElement(ClockControls), NO_CAPABILITIES);
    expect(off).toContain(note(NO_CAPABILITIES.virtualClock as string));
    expect(off).not.toContain('Virtual time');
    expect(off).not.toContain('Advance clock');
    expect(off).toContain('aria-label="Clock time"');
    const on = shown(createElement(ClockControls), ALL);
    expect(on).toContain('Virtual time');
    expect(on).toContain('Advance clock');
    expect(on).not.toContain('role="note"');
  });

  it('retention: no field for the passes kept, the reason instead', () => {
    const off = shown(createElement(RetentionSetting), NO_CAPABILITIES);
    expect(off).toBe(note(NO_CAPABILITIES.retention as string));
    const on = shown(createElement(RetentionSetting), ALL);
    expect(on).toContain('Passes kept in full');
    expect(on).not.toContain('role="note"');
  });

  it('pins: no "Pin this answer", the reason instead', () => {
    expect(shown(pinAnswer, NO_CAPABILITIES)).toBe(note(NO_CAPABILITIES.pins as string));
  });

  it('callSettings: no entry to the call settings dialog, the reason instead', () => {
    expect(shown(callSettingsEntry, NO_CAPABILITIES)).toBe(
      note(NO_CAPABILITIES.callSettings as string),
    );
    const on = shown(callSettingsEntry, ALL);
    expect(on).toContain('aria-label="Call settings"');
    expect(on).not.toContain('role="note"');
  });
});
