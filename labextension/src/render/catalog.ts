/**
 * The tool card (`application/vnd.workbench.tool+json`) and the server table
 * (`application/vnd.workbench.servers+json`), version 1, drawn as the Python views draw them.
 * Server targets arrive masked by the kernel; nothing here unmasks or adds anything.
 */
import { el, fallback, isDocument, line, list, note, record, tableCell, text } from './dom';
import { iconNode } from './icon';
import type {
  ParameterRow as IParameterRow,
  ServerRow as IServerRowDoc,
  ServersDocument as IServersDoc,
  ToolDocument as IToolDoc
} from '../generated/documents';

export const TOOL_MIME = 'application/vnd.workbench.tool+json';
export const SERVERS_MIME = 'application/vnd.workbench.servers+json';

// The shapes are generated from the JSON Schemas (workbench/display/schemas/).
export type { IParameterRow, IServerRowDoc, IServersDoc, IToolDoc };

const BADGE_TONE: Record<string, string> = {
  'read-only': 'ok',
  destructive: 'error',
  idempotent: 'accent',
  'open-world': 'warn'
};

const STATUS_TONE: Record<string, string> = {
  ok: 'ok',
  connected: 'ok',
  connecting: 'warn',
  cancelled: 'warn',
  disconnected: 'muted',
  closed: 'muted'
};

function badge(word: string): HTMLElement {
  return el('span', `jp-wb-badge jp-wb-tone-${BADGE_TONE[word] ?? 'muted'}`, word);
}

/** A table with a caption, headers and rows of already-built cells. */
function table(caption: string, headers: string[], rows: HTMLElement[][]): HTMLTableElement {
  const node = el('table', 'jp-wb-table');
  if (caption) {
    node.createCaption().textContent = caption;
  }
  const head = node.createTHead().insertRow();
  for (const title of headers) {
    head.appendChild(el('th', '', title));
  }
  const body = node.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    for (const cell of cells) {
      tableCell(row, cell.textContent ?? '').appendChild(cell);
    }
  }
  return node;
}

/** A tool card: id, title, badges, description, tags and the parameter table. */
export function renderToolCard(doc: unknown): HTMLElement {
  const tool = record(doc);
  if (!isDocument(doc, 'tool')) {
    return fallback('tool card', doc);
  }
  const box = el('div', 'jp-wb-box jp-wb-tool-card');
  const badges = el('span', 'jp-wb-badges');
  for (const word of list<string>(tool.badges)) {
    badges.appendChild(badge(text(word)));
  }
  const id = el('span', 'jp-wb-tool-id', text(tool.id));
  const icon = iconNode(tool.icon);
  if (icon) {
    id.prepend(icon);
  }
  box.appendChild(
    line(
      'jp-wb-header',
      id,
      tool.title ? el('span', 'jp-wb-title', text(tool.title)) : null,
      badges.childElementCount ? badges : null
    )
  );
  if (tool.description) {
    box.appendChild(el('div', 'jp-wb-description', text(tool.description)));
  }
  const tags = list<string>(tool.tags);
  if (tags.length) {
    box.appendChild(el('div', 'jp-wb-muted', `tags: ${tags.map(text).join(', ')}`));
  }
  const params = list<IParameterRow>(tool.parameters);
  if (!params.length) {
    box.appendChild(note('No parameters.'));
    return box;
  }
  const rows = params.map(param => {
    const row = record(param) as Partial<IParameterRow>;
    const name = el('span', 'jp-wb-mono', text(row.name));
    if (row.required) {
      name.classList.add('jp-wb-required');
    }
    return [
      name,
      el('span', 'jp-wb-mono jp-wb-tone-accent', text(row.type)),
      el('span', '', row.required ? 'yes' : ''),
      el('span', 'jp-wb-mono', text(row.default)),
      el('span', '', text(row.description))
    ];
  });
  box.appendChild(
    table('', ['name', 'type', 'required', 'default', 'description'], rows)
  );
  return box;
}

/** The server table: name, transport, target, status (coloured), tools, ping, last error. */
export function renderServers(doc: unknown): HTMLElement {
  const data = record(doc);
  if (!isDocument(doc, 'servers')) {
    return fallback('server table', doc);
  }
  const box = el('div', 'jp-wb-box jp-wb-servers');
  const servers = list<IServerRowDoc>(data.servers).map(record);
  const title = text(data.title);
  if (!servers.length) {
    box.appendChild(el('div', 'jp-wb-title', title));
    box.appendChild(note('No servers connected.'));
    return box;
  }
  const pinged = servers.some(row => typeof row.ping === 'number');
  const headers = ['name', 'transport', 'target', 'status', 'tools'];
  if (pinged) {
    headers.push('ping');
  }
  headers.push('last error');
  const rows = servers.map(row => {
    const status = text(row.status);
    const name = el('span', 'jp-wb-mono jp-wb-tone-accent', text(row.name));
    const icon = iconNode(row.icon);
    if (icon) {
      name.prepend(icon);
    }
    const cells = [
      name,
      el('span', '', text(row.transport)),
      el('span', 'jp-wb-mono', text(row.target)),
      el('span', `jp-wb-server-status jp-wb-tone-${STATUS_TONE[status] ?? 'error'}`, status),
      el('span', '', text(row.toolCount))
    ];
    if (pinged) {
      const ping = typeof row.ping === 'number' ? `${(row.ping * 1000).toFixed(1)} ms` : '';
      cells.push(el('span', '', ping));
    }
    cells.push(el('span', 'jp-wb-tone-error', text(row.lastError)));
    return cells;
  });
  box.appendChild(table(title, headers, rows));
  for (const hint of list<string>(data.hints)) {
    box.appendChild(note(text(hint), 'jp-wb-tone-warn'));
  }
  return box;
}
