/**
 * The App document (contract C1, `application/vnd.workbench.app+json`, version 1) and the
 * `workbench.apps` comm messages (contract C2), as generated from their schemas; the kernel
 * side builds them (workbench/apps/hosting.py, workbench/lab/apps_comm.py).
 */
import type { AppsReload, AppsReply, AppsRequest } from '../generated/apps-comm';
import type { AppCSP, AppDocument } from '../generated/documents';

export const APP_MIME = 'application/vnd.workbench.app+json';

export type JSONObject = Record<string, unknown>;

/** The shapes are generated from the JSON Schemas (workbench/display/schemas/). */
export type IAppCsp = AppCSP;
export type IAppDoc = AppDocument;

/** The App's HTML and the resource's `_meta.ui` parts a reload replaces. */
export type IAppPage = Pick<IAppDoc, 'html' | 'html_sha256' | 'csp' | 'permissions' | 'prefers_border'>;

/** Requests the frontend sends (the link adds `seq`). */
export type AppAsk = AppsRequest extends infer R ? (R extends { seq: unknown } ? Omit<R, 'seq'> : never) : never;

/** Replies (with the request's `seq`) and the kernel's push (without). */
export type AppReply = Exclude<AppsReply, AppsReload>;
export type IReloadPush = AppsReload;

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
