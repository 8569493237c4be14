/**
 * The App document (contract C1, `application/vnd.workbench.app+json`, version 1) and the
 * `workbench.apps` comm messages (contract C2). Written against the contracts; the kernel
 * side builds them (workbench/apps/hosting.py, workbench/lab/apps_comm.py).
 */
export const APP_MIME = 'application/vnd.workbench.app+json';

export interface IAppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

export type JSONObject = Record<string, unknown>;

export interface IAppDoc {
  version: 1;
  server: string;
  tool: string;
  uri: string;
  html: string;
  html_sha256: string;
  csp: IAppCsp | null;
  permissions: JSONObject | null;
  prefers_border: boolean | null;
  input: JSONObject;
  result: JSONObject;
  call_id: string;
  live: boolean;
}

/** The App's HTML and the resource's `_meta.ui` parts a reload replaces. */
export type IAppPage = Pick<IAppDoc, 'html' | 'html_sha256' | 'csp' | 'permissions' | 'prefers_border'>;

/** Requests the frontend sends (the link adds `seq`). */
export type AppAsk =
  | { type: 'call'; server: string; tool: string; arguments: JSONObject; uri: string; call_id: string }
  | { type: 'read'; server: string; uri: string }
  | { type: 'html'; server: string; uri: string }
  | { type: 'note'; call_id: string; kind: 'message' | 'model_context'; payload: JSONObject };

/** Replies (with the request's `seq`) and the kernel's push (without). */
export type AppReply =
  | { type: 'result'; seq: number; result: JSONObject }
  | { type: 'resource'; seq: number; contents: JSONObject[] }
  | ({ type: 'html'; seq: number } & IAppPage)
  | { type: 'ok'; seq: number }
  | { type: 'error'; seq: number; message: string };

export interface IReloadPush {
  type: 'reload';
  server: string;
  uri: string;
  html_sha256: string;
}

function isObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the saved JSON has what an App needs; anything else draws a note instead. */
export function isAppDoc(doc: unknown): doc is IAppDoc {
  return (
    isObject(doc) &&
    doc.version === 1 &&
    typeof doc.server === 'string' &&
    typeof doc.tool === 'string' &&
    typeof doc.uri === 'string' &&
    typeof doc.html === 'string'
  );
}

export { isObject };
