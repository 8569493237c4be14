/**
 * GENERATED, DO NOT EDIT: made from workbench/display/schemas/{app.schema.json,browser.schema.json,observation.schema.json,progress.schema.json,servers.schema.json,table.schema.json,tool.schema.json} by
 * labextension/scripts/generate-types.mjs (json-schema-to-typescript 16.0.0).
 * Change the schemas, then run `jlpm build:types` (every build runs it).
 * schemas-sha256: 8fef718d590f6b874006daa0972c7dd65abdebd02dc49734d823fc2ed72954d0
 */

/**
 * Any document the kernel puts in a mime bundle for the extension.
 */
export type WorkbenchDocument =
  | AppDocument
  | BrowserSnapshotDocument
  | ObservationOrActionDocument
  | ProgressDocument
  | ServersDocument
  | TableDocument
  | ToolDocument;
/**
 * One MCP content block (text, image, audio, resource_link or resource), as the server sent it; blocks may carry more of MCP's fields (annotations, _meta, icons).
 */
export type ContentBlock = {
  /**
   * The block's kind: text, image, audio, resource_link or resource; the extension draws others as a note.
   */
  type: string;
  /**
   * A text block's text (cut to the text budget).
   */
  text?: string;
  /**
   * An image or audio block's base64 data.
   */
  data?: string;
  /**
   * The media or linked resource's mime type.
   */
  mimeType?: string;
  /**
   * A resource link's URI.
   */
  uri?: string;
  /**
   * A resource link's name.
   */
  name?: string;
  /**
   * A resource link's title.
   */
  title?: string;
  /**
   * A resource link's description.
   */
  description?: string;
  /**
   * A resource link's size in bytes.
   */
  size?: number;
  resource?: ResourceContents;
  [k: string]: unknown | undefined;
};
/**
 * The document under application/vnd.workbench.observation+json: a call's Observation (ObservationView, display/observation.py) or its Action (ActionView, display/action.py); `kind` tells which. Version 1, only ever grown additively.
 */
export type ObservationOrActionDocument = ObservationDocument | ActionDocument;
/**
 * A meaning each medium picks a colour for (display/style.py).
 */
export type Tone = 'ok' | 'error' | 'warn' | 'muted' | 'accent';

/**
 * The document under application/vnd.workbench.app+json (workbench/apps/hosting.py): an MCP App (SEP-1865) drawn under the Observation of a call of a tool whose listing names a ui:// resource. It holds the App's HTML as its server gave it, what its resource asked of the host, and the call's input and result; never a credential. The bundle's text/plain ends with `App: <uri> (shown where the workbench JupyterLab extension is installed)`. Version 1, only ever grown additively.
 */
export interface AppDocument {
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The server's name in the kernel's Workbench: the App calls only this server's tools.
   */
  server: string;
  /**
   * The called tool's name on that server.
   */
  tool: string;
  /**
   * The App's ui:// resource URI (the tool's _meta.ui.resourceUri).
   */
  uri: string;
  /**
   * The App's HTML (the resource's text, text/html;profile=mcp-app, at most 5 MB). Runs only in a sandboxed iframe.
   */
  html: string;
  /**
   * The SHA-256 of the HTML's UTF-8 bytes, hex: reloads compare it.
   */
  html_sha256: string;
  /**
   * The resource's _meta.ui.csp as given (its known lists of strings), or null: no network but the host's own.
   */
  csp: AppCSP | null;
  /**
   * The resource's _meta.ui.permissions as given (camera, microphone, geolocation, clipboardWrite...), or null.
   */
  permissions: {
    [k: string]: unknown | undefined;
  } | null;
  /**
   * The resource's _meta.ui.prefersBorder, or null.
   */
  prefers_border: boolean | null;
  /**
   * The call's arguments, as sent.
   */
  input: {
    [k: string]: unknown | undefined;
  };
  result: AppCallResult;
  /**
   * The id of the call's record in the kernel's history (wb.history): notes of the App are kept there.
   */
  call_id: string;
  /**
   * Whether the workbench.apps comm can answer the App here (false where the call was made with no kernel to ask, e.g. an export).
   */
  live: boolean;
}
/**
 * The domains an App declares it needs (MCP Apps' McpUiResourceCsp).
 */
export interface AppCSP {
  /**
   * Origins for fetch, XHR and WebSockets (connect-src).
   */
  connectDomains?: string[];
  /**
   * Origins for scripts, images, styles and fonts.
   */
  resourceDomains?: string[];
  /**
   * Origins for nested iframes (frame-src).
   */
  frameDomains?: string[];
  /**
   * Allowed base URIs (base-uri).
   */
  baseUriDomains?: string[];
}
/**
 * A CallToolResult as MCP JSON: what the App is given as the tool's result, and what the comm answers an App's call with.
 */
export interface AppCallResult {
  /**
   * MCP content blocks, camelCase as on the wire.
   */
  content: {
    [k: string]: unknown | undefined;
  }[];
  /**
   * The structured content, when the result has it.
   */
  structuredContent?: {
    [k: string]: unknown | undefined;
  };
  /**
   * Whether the call failed (the content says why).
   */
  isError: boolean;
  /**
   * The result's _meta, when kept.
   */
  _meta?: {
    [k: string]: unknown | undefined;
  };
}
/**
 * The document under application/vnd.workbench.browser+json (BrowserSnapshot, display/browser_snapshot.py): what a tool browser showed, saved beside its widget's view so a notebook re-opened without its kernel still shows it. Built from the tool card, Action and Observation documents, so the snapshot looks like the widget did; no server target, environment or header is ever part of it. Version 1, only ever grown additively.
 */
export interface BrowserSnapshotDocument {
  /**
   * Which document this is.
   */
  kind: 'browser';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The browser's header line (servers and tools).
   */
  header: string;
  /**
   * The search typed, or empty.
   */
  query: string;
  /**
   * The server filter, or empty for all.
   */
  server: string;
  /**
   * What the search found (`3 of 12 tools`), or empty.
   */
  note: string;
  /**
   * How many tools matched.
   */
  total: number;
  /**
   * The result list as shown.
   */
  results: BrowserResultRow[];
  /**
   * The open tool's card document, or null when none is open.
   */
  open: ToolDocument | null;
  /**
   * The open tool's last call from the browser, or null.
   */
  lastCall: BrowserLastCall | null;
}
/**
 * One row of the result list.
 */
export interface BrowserResultRow {
  /**
   * The tool's id.
   */
  id: string;
  /**
   * Its title, or empty.
   */
  title: string;
  /**
   * Its description as the list shows it, or empty.
   */
  description: string;
  /**
   * Its annotation badges.
   */
  badges: string[];
  icon?: ToolIcon;
}
/**
 * The tool's icon that may be drawn, as an <img> before its id (workbench/tools/icons.py): only small data: images, never an https URL. `any` when the page does not know its theme, `light` / `dark` only when they differ from it.
 */
export interface ToolIcon {
  /**
   * A data: URI of an image.
   */
  any: string;
  /**
   * A data: URI of an image.
   */
  light?: string;
  /**
   * A data: URI of an image.
   */
  dark?: string;
}
/**
 * The document under application/vnd.workbench.tool+json (ToolCard, display/tool_card.py), also the open tool of a browser snapshot: what the card shows, with the parameters as rows written for people, not the input schema (which may be large). Version 1, only ever grown additively.
 */
export interface ToolDocument {
  /**
   * Which document this is.
   */
  kind: 'tool';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The tool's id, `server.name`.
   */
  id: string;
  /**
   * The server the tool comes from.
   */
  server: string;
  /**
   * The tool's name on its server.
   */
  name: string;
  /**
   * The tool's title when it differs from its name, else null.
   */
  title: string | null;
  /**
   * The tool's description, stripped.
   */
  description: string;
  /**
   * Words for the annotation hints that are true: read-only, destructive, idempotent, open-world.
   */
  badges: string[];
  /**
   * The tool's tags.
   */
  tags: string[];
  icon?: ToolIcon;
  /**
   * One row per top-level parameter of the input schema.
   */
  parameters: ParameterRow[];
}
/**
 * One top-level parameter as the card's table shows it.
 */
export interface ParameterRow {
  /**
   * The parameter's name.
   */
  name: string;
  /**
   * Its type as written for people (`string`, `integer[]`, `a | b`...).
   */
  type: string;
  /**
   * Whether the call must give it.
   */
  required: boolean;
  /**
   * Its default as JSON text, empty when there is none.
   */
  default: string;
  /**
   * Its description, empty when there is none.
   */
  description: string;
}
/**
 * A call made from the browser: its Action, and its Observation once it finished.
 */
export interface BrowserLastCall {
  action: ActionDocument;
  /**
   * The call's Observation document, or null while it runs.
   */
  observation: ObservationDocument | null;
}
/**
 * A call as it was made: the tool and its arguments.
 */
export interface ActionDocument {
  /**
   * Which document of this mime type this is.
   */
  kind: 'action';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The called tool's id (`server.name`).
   */
  toolId: string;
  /**
   * The call's arguments as JSON (values that are not JSON written as text).
   */
  arguments: {
    [k: string]: unknown | undefined;
  };
}
/**
 * One call's outcome within the bundle's size bound: MCP content blocks, structured content, the error and the duration, and what was cut to keep the saved notebook small.
 */
export interface ObservationDocument {
  /**
   * Which document of this mime type this is.
   */
  kind: 'observation';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The called tool's id (`server.name`), or the URI of a resource read; null when unknown.
   */
  toolId: string | null;
  /**
   * The result's MCP content blocks, camelCase as on the wire; long texts cut, and media left out replaced by a text block naming them.
   */
  content: ContentBlock[];
  /**
   * The result's structured content as sent (a JSON object), or null when there is none or it was left out for size.
   */
  structuredContent: {
    [k: string]: unknown | undefined;
  } | null;
  /**
   * Whether the call failed (a tool error or the workbench's own).
   */
  isError: boolean;
  /**
   * Why it failed (ErrorKind: invalid_arguments, tool_error, protocol, timeout, connection, not_found, cancelled, internal); null for a success. No duration is shown for invalid_arguments: the call never ran.
   */
  errorKind: string | null;
  /**
   * The error line, or null.
   */
  errorMessage: string | null;
  /**
   * Seconds the call took, or null when it did not run.
   */
  duration: number | null;
  /**
   * The line about the MCP App of the call's tool (workbench/apps/): `App: <uri> (shown where ...)` when the bundle also holds its App document (application/vnd.workbench.app+json), or why the App is not drawn (`App <uri> is not drawn: <reason>.`). Absent when the tool has no App.
   */
  appNote?: string;
  /**
   * Null for a whole result, else the cut note.
   */
  truncated: TruncationNote | null;
}
/**
 * An embedded resource's contents: text (cut to the text budget) or a base64 blob.
 */
export interface ResourceContents {
  /**
   * The resource's URI.
   */
  uri: string;
  /**
   * The resource's mime type.
   */
  mimeType?: string;
  /**
   * A text resource's text.
   */
  text?: string;
  /**
   * A binary resource's base64 data.
   */
  blob?: string;
  [k: string]: unknown | undefined;
}
/**
 * What the size bound left out of an Observation document; the whole result stays the Observation in Python (`wb.history[-1].observation`).
 */
export interface TruncationNote {
  /**
   * Characters one text keeps at most.
   */
  maxText: number;
  /**
   * Characters of text cut.
   */
  omittedCharacters: number;
  /**
   * The bundle's size bound, all mime types together (MAX_BYTES, 100 kB).
   */
  maxBytes: number;
  /**
   * Media and blobs left out (each replaced by a text block naming it).
   */
  omittedMedia: number;
  /**
   * Bytes of structured content left out (then `structuredContent` is null); 0 when it was kept.
   */
  omittedStructuredContent: number;
  /**
   * The sentence shown under the result: what was cut and where the whole result is.
   */
  note: string;
}
/**
 * The document under application/vnd.workbench.progress+json (CallProgress's ProgressView, display/live.py): a long call's progress line, redrawn in place. Drawn from the JSON, so an untrusted copy keeps its bar. Version 1, only ever grown additively.
 */
export interface ProgressDocument {
  /**
   * Which document this is.
   */
  kind: 'progress';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The called tool's id, or null.
   */
  toolId: string | null;
  /**
   * How far the call is, 0 to 1, when the server said a total; else null (no bar).
   */
  fraction: number | null;
  /**
   * The progress as the server counted it (`2/10`), or empty.
   */
  counts: string;
  /**
   * The last message and the time so far, or how it ended (`finished in 1.2 s`, `cancelled after 3 s`); the extension writes `stopped: ...` when the kernel went away.
   */
  status: string;
  /**
   * Whether the call ended (the line is final).
   */
  finished: boolean;
  /**
   * Whether it was cancelled.
   */
  cancelled: boolean;
  /**
   * The last server log lines of the call, oldest first.
   */
  logs: ProgressLogLine[];
}
/**
 * One log message a server sent during the call.
 */
export interface ProgressLogLine {
  /**
   * MCP's logging level (debug, info, notice, warning, error, critical, alert, emergency).
   */
  level: string;
  /**
   * The server that logged it.
   */
  server: string;
  /**
   * The message, as one line.
   */
  message: string;
}
/**
 * The document under application/vnd.workbench.servers+json (ServerTable, display/tables.py): the connections and their health, targets and errors masked by secrets.mask_text exactly as in the HTML. Version 1, only ever grown additively.
 */
export interface ServersDocument {
  /**
   * Which document this is.
   */
  kind: 'servers';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * The table's title (`2 servers`).
   */
  title: string;
  /**
   * One row per connection.
   */
  servers: ServerRow[];
  /**
   * Lines under the table saying where to read more (warnings logged for a server).
   */
  hints: string[];
}
/**
 * One connection of the Workbench.
 */
export interface ServerRow {
  /**
   * The server's name in the Workbench.
   */
  name: string;
  /**
   * How it is reached (stdio, http...).
   */
  transport: string;
  /**
   * The command or URL, secrets masked.
   */
  target: string;
  /**
   * The connection's status (connected, connecting, failed, disconnected, closed...).
   */
  status: string;
  /**
   * How many tools it lists.
   */
  toolCount: number;
  /**
   * The first line of its last error, secrets masked, or null.
   */
  lastError: string | null;
  /**
   * Seconds its last ping took, or null when it was not pinged.
   */
  ping: number | null;
  icon?: ServerIcon;
}
/**
 * The server's icon (its serverInfo) that may be drawn, as an <img> (workbench/tools/icons.py): only small data: images, never an https URL. `any` when the page does not know its theme, `light` / `dark` only when they differ from it.
 */
export interface ServerIcon {
  /**
   * A data: URI of an image.
   */
  any: string;
  /**
   * A data: URI of an image.
   */
  light?: string;
  /**
   * A data: URI of an image.
   */
  dark?: string;
}
/**
 * The document under application/vnd.workbench.table+json (every TableView but the server table, display/tables.py and the listings, workspace and event tables): titled rows of toned cells, and notes under them; the kernel already shortened and masked each cell. Version 1, only ever grown additively.
 */
export interface TableDocument {
  /**
   * Which document this is.
   */
  kind: 'table';
  /**
   * The document's version; documents only ever grow additively.
   */
  version: 1;
  /**
   * Which table this is (tool-table, history-table, search-table...), a CSS class of the drawn table.
   */
  view: string;
  /**
   * The table's title (`5 tools`).
   */
  title: string;
  /**
   * The column headers.
   */
  headers: string[];
  /**
   * The rows, each a list of cells in the headers' order.
   */
  rows: TableCell[][];
  /**
   * Lines under the table (an empty table, no good match).
   */
  notes: TableNote[];
}
/**
 * One cell with only the fields it uses: text with an optional tone, or annotation badges.
 */
export interface TableCell {
  /**
   * The cell's text (empty for a badges cell).
   */
  text: string;
  tone?: Tone;
  /**
   * Set when the text is monospace (ids, URIs).
   */
  mono?: true;
  /**
   * Annotation badges (read-only, destructive, idempotent, open-world), drawn instead of the text.
   *
   * @minItems 1
   */
  badges?: [string, ...string[]];
  /**
   * A muted word before the text (`read` before a URI).
   */
  marker?: string;
  icon?: Icon;
}
/**
 * A server's icon that may be drawn, as an <img> before the text (workbench/tools/icons.py): only small data: images, never an https URL. `any` when the page does not know its theme, `light` / `dark` only when they differ from it.
 */
export interface Icon {
  /**
   * A data: URI of an image.
   */
  any: string;
  /**
   * A data: URI of an image.
   */
  light?: string;
  /**
   * A data: URI of an image.
   */
  dark?: string;
}
/**
 * A line under the table.
 */
export interface TableNote {
  /**
   * The line.
   */
  text: string;
  tone: Tone;
}
