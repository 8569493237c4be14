/**
 * GENERATED, DO NOT EDIT: made from workbench/display/schemas/sidebar.schema.json by
 * labextension/scripts/generate-types.mjs (json-schema-to-typescript 16.0.0).
 * Change the schemas, then run `jlpm build:types` (every build runs it).
 * schemas-sha256: 8fef718d590f6b874006daa0972c7dd65abdebd02dc49734d823fc2ed72954d0
 */

/**
 * A message of the `workbench.sidebar` comm (workbench/lab/sidebar.py and state.py; the panel is labextension/src/sidebar/). The panel opens the comm; the kernel sends a `state` at once and whenever it changes, and answers each request on the same comm, echoing its `seq`; a failure comes back as a one-line `error`.
 */
export type SidebarMessage = SidebarReply | SidebarRequest;
/**
 * What the kernel sends the panel.
 */
export type SidebarReply = SidebarState | SidebarResults | SidebarTemplate | SidebarError;
/**
 * A data: URI of an image.
 */
export type HitIconSrc = string;
/**
 * The request's number, echoed in its reply so the panel drops stale answers.
 */
export type SequenceNumber = number;
/**
 * `call` for a `%mcp call` cell, `browse` for a `%mcp browse` cell.
 */
export type TemplateMode = 'call' | 'browse';
/**
 * What the panel asks the kernel.
 */
export type SidebarRequest = SidebarSearchRequest | SidebarTemplateRequest | SidebarRefreshRequest;

/**
 * What the panel shows above its search; sent when the comm opens, on a refresh, and whenever it changed.
 */
export interface SidebarState {
  /**
   * The message's kind.
   */
  type: 'state';
  /**
   * Every connection.
   */
  servers: SidebarServer[];
  /**
   * The served surface, or null.
   */
  served: SidebarServedSurface | null;
  /**
   * How many tools the Workbench has.
   */
  tools: number;
  seq?: SequenceNumber;
}
/**
 * One connection of the kernel's Workbench.
 */
export interface SidebarServer {
  /**
   * The server's name.
   */
  name: string;
  /**
   * Its connection status (connected, connecting, failed...).
   */
  status: string;
  /**
   * How it is reached (stdio, http...).
   */
  transport: string;
  /**
   * How many tools it lists.
   */
  tools: number;
  /**
   * Its last error on one line, secrets masked, or null.
   */
  error: string | null;
  icon?: SidebarIcon;
}
/**
 * A tool's or server's icon that may be drawn, as an <img> (workbench/tools/icons.py): only small data: images, never an https URL. `any` when the page does not know its theme, `light` / `dark` only when they differ from it.
 */
export interface SidebarIcon {
  any: HitIconSrc;
  light?: HitIconSrc;
  dark?: HitIconSrc;
}
/**
 * What `%mcp serve` serves now: never the token, only how it is guarded.
 */
export interface SidebarServedSurface {
  /**
   * The address clients connect to.
   */
  url: string;
  /**
   * What is served: `notebook` for the notebook's tools, else a server's name.
   */
  server: string;
  /**
   * How many tools are served.
   */
  tools: number;
  /**
   * How many clients are connected.
   */
  clients: number;
  /**
   * The token as it may be shown (`***` or a `${env:VAR}` template), or null for no auth.
   */
  auth: string | null;
}
/**
 * The answer to a search: hits best first (an empty query lists tools by id).
 */
export interface SidebarResults {
  /**
   * The message's kind.
   */
  type: 'results';
  /**
   * The query searched (cut to 1,000 characters).
   */
  query: string;
  /**
   * The hits, at most the limit asked (100 at most).
   *
   * @maxItems 100
   */
  hits: SidebarSearchHit[];
  /**
   * How many tools matched (all tools for an empty query).
   */
  total: number;
  /**
   * Whether no hit is a credible answer.
   */
  noGoodMatch: boolean;
  /**
   * Tool ids the query may have meant, when nothing matched well.
   */
  suggestions: string[];
  seq?: SequenceNumber;
}
/**
 * One tool of a search answer.
 */
export interface SidebarSearchHit {
  /**
   * The tool's id, `server.name`.
   */
  id: string;
  /**
   * Its server.
   */
  server: string;
  /**
   * Its name on the server.
   */
  name: string;
  /**
   * Its title, or null.
   */
  title: string | null;
  /**
   * The first paragraph of its description on one line, cut to 200 characters.
   */
  summary: string;
  /**
   * Whether it says it only reads.
   */
  readOnly: boolean;
  /**
   * Whether it says it may destroy.
   */
  destructive: boolean;
  icon?: SidebarIcon;
}
/**
 * A ready-to-run cell for a tool, which the panel inserts below the active cell.
 */
export interface SidebarTemplate {
  /**
   * The message's kind.
   */
  type: 'template';
  /**
   * The tool's id.
   */
  id: string;
  mode: TemplateMode;
  /**
   * The cell's source: comment lines, then one `%mcp` line.
   */
  code: string;
  seq?: SequenceNumber;
}
/**
 * A request that failed, said on one line.
 */
export interface SidebarError {
  /**
   * The message's kind.
   */
  type: 'error';
  /**
   * What went wrong, on one line.
   */
  message: string;
  seq?: SequenceNumber;
}
/**
 * Search the Workbench's tools.
 */
export interface SidebarSearchRequest {
  /**
   * The request's kind.
   */
  type: 'search';
  /**
   * The words typed; empty lists every tool.
   */
  query: string;
  /**
   * The most hits wanted (the kernel keeps it to 1-100).
   */
  limit: number;
  seq: SequenceNumber;
}
/**
 * Ask for a cell that calls or browses a tool.
 */
export interface SidebarTemplateRequest {
  /**
   * The request's kind.
   */
  type: 'template';
  /**
   * The tool's id.
   */
  id: string;
  mode: TemplateMode;
  seq: SequenceNumber;
}
/**
 * Ask for the state again.
 */
export interface SidebarRefreshRequest {
  /**
   * The request's kind.
   */
  type: 'refresh';
  seq: SequenceNumber;
}
