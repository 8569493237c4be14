/**
 * Small DOM helpers for the renderers: every piece of text from a document goes in through
 * `textContent`, never as HTML, so a saved notebook cannot inject markup into the page.
 */

/** The version of the workbench's JSON documents these renderers draw. */
export const JSON_VERSION = 1;

/** A parsed JSON value as an object ({} for anything else), so fields read safely. */
export function record(doc: unknown): Record<string, unknown> {
  return (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
}

/** Whether ``doc`` is a workbench document of ``kind`` in the version drawn here. */
export function isDocument(doc: unknown, kind: string): boolean {
  const fields = record(doc);
  return fields.kind === kind && fields.version === JSON_VERSION;
}

/** A JSON array, or [] for anything else. */
export function list<T = unknown>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** A JSON scalar as text ('' for null and missing). */
export function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** An element with `jp-wb-` classes and, maybe, its text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

/** Characters a table cell holds on one line whatever the width: ids, numbers, statuses and
 * short phrases never break; a longer text with spaces wraps at them (`display/tables.py`
 * `PROSE_LENGTH` is the same rule for the HTML). */
export const PROSE_LENGTH = 24;

/** A table cell for `text`: one that wraps at its spaces (`jp-wb-prose`) when it is long. */
export function tableCell(row: HTMLTableRowElement, text: string): HTMLTableCellElement {
  const cell = row.insertCell();
  if (text.length > PROSE_LENGTH && /\s/.test(text.trim())) {
    cell.className = 'jp-wb-prose';
  }
  return cell;
}

/** Preformatted text that wraps (tool output keeps its layout, never overflows). */
export function pre(text: string, className = ''): HTMLPreElement {
  return el('pre', `jp-wb-pre ${className}`.trim(), text);
}

/** A small italic line: notes, empty lists, truncation. */
export function note(text: string, className = ''): HTMLDivElement {
  return el('div', `jp-wb-note ${className}`.trim(), text);
}

/** A row of pieces that wraps on narrow screens. */
export function line(className: string, ...pieces: (HTMLElement | null)[]): HTMLDivElement {
  const row = el('div', `jp-wb-line ${className}`.trim());
  for (const piece of pieces) {
    if (piece) {
      row.appendChild(piece);
    }
  }
  return row;
}

/** A value as text: strings as they are, anything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : toJson(value, 2);
}

/** JSON that never throws (cycles cannot occur in parsed JSON, but be safe). */
export function toJson(value: unknown, indent?: number): string {
  try {
    const text = JSON.stringify(value, null, indent);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

/** Whether two parsed JSON values are equal (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a) !== Array.isArray(b)) {
    return false;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      key =>
        Object.prototype.hasOwnProperty.call(b, key) &&
        jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
    )
  );
}

/** A media type safe to put in a data: URL of the given family (image, audio). */
export function safeMime(mime: unknown, family: string): string | null {
  if (typeof mime !== 'string') {
    return null;
  }
  const lower = mime.trim().toLowerCase();
  return new RegExp(`^${family}/[a-z0-9.+-]+$`).test(lower) ? lower : null;
}

/** The type of every Save link: bytes to keep, never a page the browser might draw. */
export const DOWNLOAD_MIME = 'application/octet-stream';

const MAX_FILE_NAME = 100;

/**
 * A Save link's file name from a server's URI, made as the kernel makes it
 * (`saving.file_name`): the last path segment, decoded; anything but letters, digits, `_`,
 * `.` and `-` replaced (no separators, no control characters); no leading or trailing dots;
 * at most 100 characters; "resource" when nothing is left.
 */
export function safeFileName(uri: string): string {
  const path = uri.split('#', 1)[0].split('?', 1)[0].replace(/\/+$/, '');
  const slash = path.lastIndexOf('/');
  let last = slash >= 0 ? path.slice(slash + 1) : '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // a malformed escape stays as written; its % is replaced below
  }
  const name = last
    .replace(/[^\p{L}\p{N}_.-]+/gu, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, MAX_FILE_NAME);
  return name || 'resource';
}

/** Base64 text only (no quotes, no markup): what a data: URL may carry. */
export function isBase64(data: unknown): data is string {
  return typeof data === 'string' && /^[A-Za-z0-9+/=\s]*$/.test(data);
}

/** Milliseconds under a second, seconds above: as the Python views write it. */
export function formatDuration(seconds: unknown): string {
  if (typeof seconds !== 'number' || !isFinite(seconds)) {
    return '';
  }
  if (seconds < 1) {
    return `${(seconds * 1000).toFixed(1)} ms`;
  }
  if (seconds < 10) {
    return `${seconds.toFixed(2)} s`;
  }
  return `${seconds.toFixed(1)} s`;
}

/** A byte count people read: B, kB, MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) {
    return `${bytes} B`;
  }
  if (bytes < 1_000_000) {
    return `${(bytes / 1000).toFixed(1)} kB`;
  }
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The short line drawn for a document this version of the extension cannot read. */
export function fallback(what: string, doc: unknown): HTMLElement {
  const box = el('div', 'jp-wb-box jp-wb-fallback');
  const record = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  const kind = typeof record.kind === 'string' ? record.kind : '?';
  const version = record.version === undefined ? '?' : String(record.version);
  const tool = typeof record.toolId === 'string' ? ` (${record.toolId})` : '';
  box.appendChild(
    note(
      `A workbench ${what} (kind ${kind}, version ${version})${tool} that this version of the ` +
        'extension cannot draw; update mcp-workbench, or run the cell again.'
    )
  );
  return box;
}
