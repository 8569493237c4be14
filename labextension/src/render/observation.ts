/**
 * Observation and Action documents (`application/vnd.workbench.observation+json`, version 1)
 * drawn as the Python views draw them: a header (tool id, status, duration), the error line,
 * text, media, resources, structured content and the truncation note. Exported for other
 * parts of the extension (the tool browser's snapshot draws its last call with them).
 */
import {
  DOWNLOAD_MIME,
  asText,
  el,
  fallback,
  formatDuration,
  formatSize,
  isDocument,
  isBase64,
  jsonEqual,
  line,
  note,
  pre,
  safeFileName,
  safeMime,
  toJson
} from './dom';
import type {
  ActionDocument as IActionDoc,
  ContentBlock as IContentBlock,
  ObservationDocument as IObservationDoc,
  ResourceContents,
  TruncationNote as ITruncation
} from '../generated/documents';

export const OBSERVATION_MIME = 'application/vnd.workbench.observation+json';

// The shapes are generated from the JSON Schemas (workbench/display/schemas/).
export type { IActionDoc, IContentBlock, IObservationDoc, ITruncation };

/** Errors of calls refused before they ran: a duration would suggest they did. */
const NEVER_RAN = new Set(['invalid_arguments']);

/** Characters of one argument value shown, as the Python ActionView. */
const MAX_VALUE = 2000;
const COMPACT_WIDTH = 60;

/** Draw either kind of the observation mime type; anything else gets a fallback line. */
export function renderWorkbenchDoc(doc: unknown): HTMLElement {
  if (isDocument(doc, 'observation')) {
    return renderObservation(doc as IObservationDoc);
  }
  if (isDocument(doc, 'action')) {
    return renderAction(doc as IActionDoc);
  }
  return fallback('call', doc);
}

/** One Observation: header, error line, content, structured content, truncation note. */
export function renderObservation(doc: IObservationDoc): HTMLElement {
  try {
    return drawObservation(doc);
  } catch (error) {
    console.warn('workbench: cannot draw an observation', error);
    return fallback('result', doc);
  }
}

/** One Action: the tool id and its arguments as a two-column table. */
export function renderAction(doc: IActionDoc): HTMLElement {
  try {
    return drawAction(doc);
  } catch (error) {
    console.warn('workbench: cannot draw an action', error);
    return fallback('call', doc);
  }
}

function drawObservation(doc: IObservationDoc): HTMLElement {
  const isError = doc.isError === true;
  const box = el('div', `jp-wb-box jp-wb-observation ${isError ? 'jp-wb-is-error' : 'jp-wb-is-ok'}`);
  const kind = typeof doc.errorKind === 'string' ? doc.errorKind : null;
  const duration =
    kind !== null && NEVER_RAN.has(kind) ? '' : formatDuration(doc.duration);
  const header = line(
    'jp-wb-header',
    typeof doc.toolId === 'string' && doc.toolId ? el('span', 'jp-wb-tool-id', doc.toolId) : null,
    el(
      'span',
      `jp-wb-status ${isError ? 'jp-wb-status-error' : 'jp-wb-status-ok'}`,
      isError ? `Error · ${kind ?? 'error'}` : 'ok'
    ),
    duration ? el('span', 'jp-wb-duration', duration) : null
  );
  box.appendChild(header);

  const message = isError && typeof doc.errorMessage === 'string' ? doc.errorMessage : '';
  if (message) {
    box.appendChild(pre(message, 'jp-wb-error-line'));
  }
  const blocks = Array.isArray(doc.content) ? doc.content : [];
  const structured = doc.structuredContent;
  const hasStructured = structured !== null && structured !== undefined;
  const texts: string[] = [];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) {
      continue;
    }
    if (block.type === 'text' && typeof block.text === 'string') {
      texts.push(block.text);
      if (block.text === message || isStructuredTwin(block.text, structured)) {
        continue;
      }
    }
    box.appendChild(renderBlock(block, isError, doc.toolId));
  }
  if (hasStructured && !isWrappedText(structured, texts)) {
    const json = pre(toJson(structured, 2), 'jp-wb-structured');
    json.title = 'structured content';
    box.appendChild(json);
  }
  if (!blocks.length && !hasStructured && !message) {
    box.appendChild(note('(no content)'));
  }
  const truncated = doc.truncated;
  if (truncated && typeof truncated === 'object') {
    const text =
      typeof truncated.note === 'string' && truncated.note
        ? truncated.note
        : 'Part of this result was cut to keep the notebook small.';
    box.appendChild(note(text, 'jp-wb-truncated'));
  }
  return box;
}

/** Whether a text block only repeats the structured content as JSON. */
function isStructuredTwin(text: string, structured: unknown): boolean {
  if (structured === null || typeof structured !== 'object') {
    return false;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return false;
  }
  const wrapped = (structured as Record<string, unknown>).result;
  return jsonEqual(data, structured) || (wrapped !== undefined && jsonEqual(data, wrapped));
}

/** Whether structured content only wraps a string result a text block already says. */
function isWrappedText(structured: unknown, texts: string[]): boolean {
  if (structured === null || typeof structured !== 'object' || Array.isArray(structured)) {
    return false;
  }
  const keys = Object.keys(structured);
  const result = (structured as Record<string, unknown>).result;
  return (
    keys.length === 1 &&
    keys[0] === 'result' &&
    typeof result === 'string' &&
    (texts.includes(result) || texts.join('') === result)
  );
}

function renderBlock(block: IContentBlock, isError: boolean, toolId: string | null): HTMLElement {
  switch (block.type) {
    case 'text':
      return pre(asText(block.text ?? ''), `jp-wb-text${isError ? ' jp-wb-error-text' : ''}`);
    case 'image':
    case 'audio':
      return renderMedia(block.type, block.mimeType, block.data);
    case 'resource_link':
      return renderLink(block);
    case 'resource':
      return renderResource(block, toolId);
    default:
      return note(`A ${String(block.type)} block this version of the extension does not draw.`);
  }
}

function renderMedia(kind: 'image' | 'audio', mime: unknown, data: unknown): HTMLElement {
  const type = safeMime(mime, kind);
  if (!type || !isBase64(data)) {
    return note(`An ${kind} (${String(mime)}) that cannot be shown.`);
  }
  const src = `data:${type};base64,${data.replace(/\s/g, '')}`;
  if (kind === 'image') {
    const img = el('img', 'jp-wb-image');
    img.src = src;
    img.alt = `image (${type})`;
    return img;
  }
  const audio = el('audio', 'jp-wb-audio');
  audio.controls = true;
  audio.src = src;
  return audio;
}

function renderLink(block: IContentBlock): HTMLElement {
  const row = el('div', 'jp-wb-resource-link');
  row.appendChild(el('span', 'jp-wb-muted', 'link '));
  row.appendChild(el('code', 'jp-wb-uri', String(block.uri ?? '')));
  const extra = [block.name, block.mimeType, typeof block.size === 'number' ? formatSize(block.size) : '']
    .filter(part => typeof part === 'string' && part)
    .join(' · ');
  if (extra) {
    row.appendChild(el('span', 'jp-wb-muted', `  ${extra}`));
  }
  if (typeof block.description === 'string' && block.description) {
    row.appendChild(el('div', 'jp-wb-description', block.description));
  }
  return row;
}

function renderResource(block: IContentBlock, toolId: string | null): HTMLElement {
  const resource: Partial<ResourceContents> = block.resource ?? {};
  const uri = String(resource.uri ?? '');
  const wrap = el('div', 'jp-wb-resource');
  if (uri !== toolId) {
    const head = el('div', 'jp-wb-resource-head');
    head.appendChild(el('code', 'jp-wb-uri', uri));
    if (resource.mimeType) {
      head.appendChild(el('span', 'jp-wb-muted', `  ${resource.mimeType}`));
    }
    wrap.appendChild(head);
  }
  if (typeof resource.text === 'string') {
    wrap.appendChild(pre(prettyIfJson(resource.text, resource.mimeType), 'jp-wb-text'));
  } else if (isBase64(resource.blob)) {
    const image = safeMime(resource.mimeType, 'image');
    if (image) {
      wrap.appendChild(renderMedia('image', image, resource.blob));
    } else {
      const bytes = Math.floor((resource.blob.replace(/\s/g, '').length * 3) / 4);
      const row = note(`${formatSize(bytes)} of ${resource.mimeType ?? 'binary data'} `);
      // bytes under a safe name: never the server's page type nor its path (G14)
      const save = el('a', 'jp-wb-save', 'Save');
      save.href = `data:${DOWNLOAD_MIME};base64,${resource.blob.replace(/\s/g, '')}`;
      save.download = safeFileName(uri);
      row.appendChild(save);
      wrap.appendChild(row);
    }
  }
  return wrap;
}

/** JSON resources pretty-printed, as the Python view shows a read. */
function prettyIfJson(text: string, mime: unknown): string {
  if (typeof mime !== 'string' || !/json/i.test(mime)) {
    return text;
  }
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function drawAction(doc: IActionDoc): HTMLElement {
  const box = el('div', 'jp-wb-box jp-wb-action');
  box.appendChild(
    line('jp-wb-header', el('span', 'jp-wb-muted', 'call'), el('span', 'jp-wb-tool-id', String(doc.toolId ?? '')))
  );
  const args =
    typeof doc.arguments === 'object' && doc.arguments !== null && !Array.isArray(doc.arguments)
      ? doc.arguments
      : {};
  const names = Object.keys(args);
  if (!names.length) {
    box.appendChild(note('No arguments.'));
    return box;
  }
  const table = el('table', 'jp-wb-table jp-wb-arguments');
  const head = table.createTHead().insertRow();
  for (const title of ['argument', 'value']) {
    head.appendChild(el('th', '', title));
  }
  const body = table.createTBody();
  for (const name of names) {
    const row = body.insertRow();
    row.insertCell().appendChild(el('span', 'jp-wb-arg-name', name));
    const value = args[name];
    let text = toJson(value);
    if (typeof value === 'object' && value !== null && text.length > COMPACT_WIDTH) {
      text = toJson(value, 2);
    }
    const cell = row.insertCell();
    cell.appendChild(pre(text.slice(0, MAX_VALUE), 'jp-wb-value'));
    if (text.length > MAX_VALUE) {
      cell.appendChild(note(`… ${text.length - MAX_VALUE} more characters`));
    }
  }
  box.appendChild(table);
  return box;
}
