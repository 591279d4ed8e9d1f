/**
 * The app's icons, all SVG (lucide-react), never emoji: an emoji draws as an empty box where no
 * emoji font is installed. Every icon here is decorative (aria-hidden); the control or text
 * beside it carries the meaning. The canvas imports the kind and trigger icons from here.
 */
import { memo } from 'react';
import {
  AlarmClock,
  ArrowLeftRight,
  Boxes,
  CirclePlay,
  Clock,
  GitFork,
  GitMerge,
  Globe,
  Mail,
  Settings2,
  Square,
  TriangleAlert,
  User,
  type LucideIcon,
  type LucideProps,
} from 'lucide-react';
import type { NodeKind } from '../../shared/schema.ts';

export {
  ArrowRight,
  Check,
  ChevronDown,
  ChevronRight,
  CircleHelp,
  Copy,
  Download,
  Ellipsis,
  FastForward,
  FilePlus2,
  FileUp,
  Image,
  KeyRound,
  LayoutGrid,
  Map as MapIcon,
  ListRestart,
  Monitor,
  Moon,
  PanelBottom,
  PanelLeft,
  PanelRight,
  Pause,
  Pencil,
  Pin,
  PinOff,
  Play,
  Plus,
  Redo2,
  RotateCcw,
  Send,
  SkipForward,
  Square as StopIcon,
  StepForward,
  Sun,
  Trash2,
  Undo2,
  X,
  Search,
  ArrowUp,
  ArrowDown,
  ArrowUpDown,
  Zap,
  CircleCheck,
  CircleX,
  Hourglass,
  Timer,
  Save,
  CloudAlert,
  Workflow,
  Clock,
  AlarmClock,
  Mail,
  History,
  Server,
  CloudUpload,
} from 'lucide-react';

const KIND: Readonly<Record<NodeKind, LucideIcon>> = {
  start: CirclePlay,
  work: Settings2,
  fanout: GitFork,
  join: GitMerge,
  'continue-after': AlarmClock,
  subflow: Boxes,
  end: Square,
};

/**
 * The icon of a node kind, as drawn in the palette and on each node's header. Memoized, as the
 * trigger icon is: a node or label that renders for its data does not redraw its icon.
 */
export const KindIcon = memo(function KindIcon({
  kind,
  size = 14,
  ...rest
}: { kind: NodeKind } & LucideProps) {
  const Icon = KIND[kind];
  return <Icon size={size} aria-hidden="true" {...rest} />;
});

const TRIGGER = { timer: Clock, event: Mail, human: User, call: ArrowLeftRight } as const;

/** The icon of a trigger kind: a timer, an event, a person, a request and its answer. */
export const TriggerIcon = memo(function TriggerIcon({
  kind,
  size = 12,
  ...rest
}: { kind: keyof typeof TRIGGER } & LucideProps) {
  const Icon = TRIGGER[kind];
  return <Icon size={size} aria-hidden="true" {...rest} />;
});

/** The icon beside a count of problems. */
export function ProblemIcon({ size = 12, ...rest }: LucideProps) {
  return <TriangleAlert size={size} aria-hidden="true" {...rest} />;
}

/**
 * The icon of a Call: a continue-after whose one trigger is a call, in the palette and on its
 * node's header, so a request stands apart from a wait at a glance.
 */
export function CallIcon({ size = 14, ...rest }: LucideProps) {
  return <Globe size={size} aria-hidden="true" {...rest} />;
}
