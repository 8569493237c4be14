/**
 * Every other table of the workbench (`application/vnd.workbench.table+json`, version 1):
 * tools, search hits, history, resources, templates, prompts, workspace files and events,
 * as titled rows of toned cells and notes under them. The kernel already shortened and
 * masked each cell; nothing here adds to it.
 */
import { el, fallback, isDocument, note, record, tableCell } from './dom';
import { iconNode } from './icon';
import type { TableCell as ITableCell, TableDocument as ITableDoc } from '../generated/documents';

export const TABLE_MIME = 'application/vnd.workbench.table+json';

// The shapes are generated from the JSON Schemas (workbench/display/schemas/).
export type { ITableCell, ITableDoc };

const TONES = new Set(['ok', 'error', 'warn', 'muted', 'accent']);
const BADGE_TONE: Record<string, string> = {
  'read-only': 'ok',
  destructive: 'error',
  idempotent: 'accent',
  'open-world': 'warn'
};

function tone(name: unknown): string {
  return typeof name === 'string' && TONES.has(name) ? ` jp-wb-tone-${name}` : '';
}

function cellNode(cell: unknown): HTMLElement {
  const data = (typeof cell === 'object' && cell !== null ? cell : {}) as ITableCell;
  const wrap = el('span');
  if (Array.isArray(data.badges) && data.badges.length) {
    for (const word of data.badges) {
      const name = String(word);
      wrap.appendChild(el('span', `jp-wb-badge jp-wb-tone-${BADGE_TONE[name] ?? 'muted'}`, name));
    }
    return wrap;
  }
  if (data.marker) {
    wrap.appendChild(el('span', 'jp-wb-muted', `${String(data.marker)} `));
  }
  const icon = iconNode(data.icon);
  if (icon) {
    wrap.appendChild(icon);
  }
  const classes = `${data.mono ? 'jp-wb-mono' : ''}${tone(data.tone)}`.trim();
  wrap.appendChild(el('span', classes, String(data.text ?? '')));
  return wrap;
}

/** A titled table and its notes; a table without rows is its title and notes. */
export function renderTable(doc: unknown): HTMLElement {
  const data = record(doc) as Partial<ITableDoc>;
  if (!isDocument(doc, 'table')) {
    return fallback('table', doc);
  }
  const view = typeof data.view === 'string' && /^[a-z-]+$/.test(data.view) ? data.view : 'table';
  const box = el('div', `jp-wb-box jp-wb-table-view jp-wb-${view}`);
  const rows = Array.isArray(data.rows) ? data.rows : [];
  const title = String(data.title ?? '');
  if (rows.length) {
    const table = el('table', 'jp-wb-table');
    table.createCaption().textContent = title;
    const head = table.createTHead().insertRow();
    for (const name of Array.isArray(data.headers) ? data.headers : []) {
      head.appendChild(el('th', '', String(name)));
    }
    const body = table.createTBody();
    for (const row of rows) {
      const tr = body.insertRow();
      for (const cell of Array.isArray(row) ? row : []) {
        const node = cellNode(cell);
        tableCell(tr, node.textContent ?? '').appendChild(node);
      }
    }
    box.appendChild(table);
  } else {
    box.appendChild(el('div', 'jp-wb-title', title));
  }
  for (const item of Array.isArray(data.notes) ? data.notes : []) {
    box.appendChild(note(String(item?.text ?? ''), tone(item?.tone).trim()));
  }
  return box;
}
