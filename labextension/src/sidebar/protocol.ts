/**
 * The `workbench.sidebar` comm's messages (the kernel's side: workbench/lab/sidebar.py).
 * The panel opens the comm; the kernel sends a `state` at once and on every change, and
 * answers each request on the same comm, echoing its `seq`.
 */

export const TARGET = 'workbench.sidebar';

/** One connection of the kernel's Workbench. */
export interface IServerRow {
  name: string;
  status: string;
  transport: string;
  tools: number;
  error: string | null;
}

/** What `%mcp serve` serves now: never the token, only how it is guarded. */
export interface IServed {
  url: string;
  server: string;
  tools: number;
  clients: number;
  auth: string | null;
}

export interface IState {
  type: 'state';
  servers: IServerRow[];
  served: IServed | null;
  tools: number;
  seq?: number;
}

export interface IHit {
  id: string;
  server: string;
  name: string;
  title: string | null;
  summary: string;
  readOnly: boolean;
  destructive: boolean;
}

export interface IResults {
  type: 'results';
  query: string;
  hits: IHit[];
  total: number;
  noGoodMatch: boolean;
  suggestions: string[];
  seq?: number;
}

export interface ITemplate {
  type: 'template';
  id: string;
  mode: 'call' | 'browse';
  code: string;
  seq?: number;
}

export interface IError {
  type: 'error';
  message: string;
  seq?: number;
}

export type Reply = IState | IResults | ITemplate | IError;

export type Request =
  | { type: 'search'; query: string; limit: number; seq: number }
  | { type: 'template'; id: string; mode: 'call' | 'browse'; seq: number }
  | { type: 'refresh'; seq: number };

/** Whether a comm message's data is one of the replies above (the kernel's, but check). */
export function isReply(data: unknown): data is Reply {
  if (typeof data !== 'object' || data === null) {
    return false;
  }
  const kind = (data as { type?: unknown }).type;
  return kind === 'state' || kind === 'results' || kind === 'template' || kind === 'error';
}
