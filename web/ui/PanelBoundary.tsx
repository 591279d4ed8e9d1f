import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './Button.tsx';
import { disarm, tripIfAsked } from './panelTripwire.ts';

interface Props {
  /** The panel's name, as its heading says it: "Journal", "Canvas". */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | undefined;
  /** Bumped by Reload: the panel's content mounts afresh. */
  generation: number;
}

/**
 * Holds a render error inside one panel: the panel says what failed and offers to reload it,
 * the rest of the workbench goes on, and the error is logged with its component stack. React
 * catches render errors only in a class component; this is the app's one.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: undefined, generation: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`The ${this.props.name} panel failed to render:`, error, info.componentStack);
  }

  private reload = () => {
    disarm(this.props.name);
    this.setState((s) => ({ error: undefined, generation: s.generation + 1 }));
  };

  override render() {
    const { name, children } = this.props;
    const { error, generation } = this.state;
    if (error)
      return (
        <section className="panel-failed" role="alert" aria-label={`${name} failed`}>
          <p>
            The {name} panel failed: {error.message.replace(/\.$/, '')}. The rest of the workbench
            goes on.
          </p>
          <Button size="sm" onClick={this.reload}>
            Reload {name}
          </Button>
        </section>
      );
    return (
      <Tripwire key={generation} name={name}>
        {children}
      </Tripwire>
    );
  }
}

/** The panel's content, failing first when a test asked it to (panelTripwire.ts). */
function Tripwire({ name, children }: { name: string; children: ReactNode }) {
  tripIfAsked(name);
  return children;
}
