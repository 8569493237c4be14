/**
 * The `workbench.sidebar` comm's messages (the kernel's side: workbench/lab/sidebar.py).
 * The panel opens the comm; the kernel sends a `state` at once and on every change, and
 * answers each request on the same comm, echoing its `seq`.
 */
import type {
  SidebarError as IError,
  SidebarReply as Reply,
  SidebarRequest as Request,
  SidebarResults as IResults,
  SidebarSearchHit as IHit,
  SidebarServedSurface as IServed,
  SidebarServer as IServerRow,
  SidebarState as IState,
  SidebarTemplate as ITemplate
} from '../generated/sidebar';

export const TARGET = 'workbench.sidebar';

// The messages' shapes are generated from their JSON Schema (workbench/display/schemas/).
export type { IError, IHit, IResults, IServed, IServerRow, IState, ITemplate, Reply, Request };

/** Whether a comm message's data is one of the replies above (the kernel's, but check). */
export function isReply(data: unknown): data is Reply {
  if (typeof data !== 'object' || data === null) {
    return false;
  }
  const kind = (data as { type?: unknown }).type;
  return kind === 'state' || kind === 'results' || kind === 'template' || kind === 'error';
}
