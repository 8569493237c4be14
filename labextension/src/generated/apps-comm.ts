/**
 * GENERATED, DO NOT EDIT: made from workbench/display/schemas/apps-comm.schema.json by
 * labextension/scripts/generate-types.mjs (json-schema-to-typescript 16.0.0).
 * Change the schemas, then run `jlpm build:types` (every build runs it).
 * schemas-sha256: 8fef718d590f6b874006daa0972c7dd65abdebd02dc49734d823fc2ed72954d0
 */

/**
 * A message of the `workbench.apps` comm (workbench/lab/apps_comm.py): MCP Apps drawn in the notebook ask the kernel's Workbench. The extension opens one comm per kernel; each request carries a `seq` its reply echoes; a failure is a one-line `error`. The kernel pushes `reload` (no seq) when an App's HTML changed.
 */
export type AppsCommMessage = AppsReply | AppsRequest;
/**
 * What the kernel sends the App outputs.
 */
export type AppsReply = AppsCallResult | AppsResource | AppsHtml | AppsOk | AppsError | AppsReload;
/**
 * The request's number, echoed in its reply.
 */
export type AppsSequenceNumber = number | string | null;
/**
 * What an App output asks the kernel (always for the App's own server).
 */
export type AppsRequest = AppsCallRequest | AppsReadRequest | AppsHtmlRequest | AppsNoteRequest;

/**
 * The answer to `call`: the CallToolResult as MCP JSON.
 */
export interface AppsCallResult {
  /**
   * Which message this is.
   */
  type: 'result';
  seq: AppsSequenceNumber;
  result: AppCallResult;
}
/**
 * The CallToolResult as MCP JSON.
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
 * The answer to `read`: the resource's contents as MCP JSON.
 */
export interface AppsResource {
  /**
   * Which message this is.
   */
  type: 'resource';
  seq: AppsSequenceNumber;
  /**
   * The resource's contents (MCP ResourceContents JSON).
   */
  contents: {
    [k: string]: unknown | undefined;
  }[];
}
/**
 * The answer to `html`: the App's HTML and what its resource asked of the host.
 */
export interface AppsHtml {
  /**
   * Which message this is.
   */
  type: 'html';
  seq: AppsSequenceNumber;
  /**
   * The App's HTML.
   */
  html: string;
  /**
   * The SHA-256 of the HTML's UTF-8 bytes, hex.
   */
  html_sha256: string;
  /**
   * The resource's _meta.ui.csp as given, or null.
   */
  csp: AppCSP | null;
  /**
   * The resource's _meta.ui.permissions as given, or null.
   */
  permissions: {
    [k: string]: unknown | undefined;
  } | null;
  /**
   * The resource's _meta.ui.prefersBorder, or null.
   */
  prefers_border: boolean | null;
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
 * The answer to `note`: kept.
 */
export interface AppsOk {
  /**
   * Which message this is.
   */
  type: 'ok';
  seq: AppsSequenceNumber;
}
/**
 * A request refused or failed, on one line.
 */
export interface AppsError {
  /**
   * Which message this is.
   */
  type: 'error';
  seq: AppsSequenceNumber;
  /**
   * What went wrong, on one line.
   */
  message: string;
}
/**
 * Pushed when an App's HTML changed: outputs showing (server, uri) fetch it with `html` and reload with the same input and result.
 */
export interface AppsReload {
  /**
   * Which message this is.
   */
  type: 'reload';
  /**
   * The App's own server (its name in the kernel's Workbench).
   */
  server: string;
  /**
   * The App's (or the read resource's) URI.
   */
  uri: string;
  /**
   * The SHA-256 of the HTML's UTF-8 bytes, hex.
   */
  html_sha256: string | null;
}
/**
 * An App's tools/call: the Workbench's one call path, history source `app`; refused unless the server is connected, has the tool and its _meta.ui.visibility (default [model, app]) names `app`.
 */
export interface AppsCallRequest {
  /**
   * Which message this is.
   */
  type: 'call';
  seq: AppsSequenceNumber;
  /**
   * The App's own server.
   */
  server: string;
  /**
   * The tool's name on that server.
   */
  tool: string;
  /**
   * The call's arguments.
   */
  arguments?: {
    [k: string]: unknown | undefined;
  } | null;
  /**
   * The calling App's ui:// URI.
   */
  uri?: string;
  /**
   * The call the App is drawn under.
   */
  call_id?: string;
}
/**
 * An App's resources/read on its own server, recorded in the history (source `app`).
 */
export interface AppsReadRequest {
  /**
   * Which message this is.
   */
  type: 'read';
  seq: AppsSequenceNumber;
  /**
   * The App's own server (its name in the kernel's Workbench).
   */
  server: string;
  /**
   * The App's (or the read resource's) URI.
   */
  uri: string;
}
/**
 * The App's HTML from the kernel's cache (for a reload).
 */
export interface AppsHtmlRequest {
  /**
   * Which message this is.
   */
  type: 'html';
  seq: AppsSequenceNumber;
  /**
   * The App's own server (its name in the kernel's Workbench).
   */
  server: string;
  /**
   * The App's (or the read resource's) URI.
   */
  uri: string;
}
/**
 * An App's ui/message or ui/update-model-context, kept on the call's history record (app_notes).
 */
export interface AppsNoteRequest {
  /**
   * Which message this is.
   */
  type: 'note';
  seq: AppsSequenceNumber;
  /**
   * The history record id of the call the App is drawn under.
   */
  call_id: string;
  /**
   * message (ui/message) or model_context (ui/update-model-context).
   */
  kind: 'message' | 'model_context';
  /**
   * What the App sent, as given.
   */
  payload: {
    [k: string]: unknown | undefined;
  };
}
