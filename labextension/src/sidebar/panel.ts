/**
 * The MCP panel: the bound notebook's servers with status, what is served, and a search
 * over every connected tool. A click on a tool asks the kernel for a ready-to-run
 * `%mcp call` cell (or a `%mcp browse` cell) and hands it to `onInsert`. Plain DOM built
 * with textContent: nothing the kernel or a server sends is parsed as HTML.
 */
import { Widget } from '@lumino/widgets';

import { el } from '../render/dom';
import { iconNode } from '../render/icon';
import { KernelLink, LinkStatus } from './link';
import { IHit, IResults, IServed, IServerRow, IState, Reply } from './protocol';

const LIMIT = 40;
const DEBOUNCE_MS = 120;

const NOTICES: Record<Exclude<LinkStatus, 'ready'>, string> = {
  'no-notebook': 'Open a notebook: this panel shows the MCP servers and tools of its kernel.',
  'no-kernel': 'This notebook has no kernel running.',
  connecting: 'Asking the kernel…',
  missing: 'The workbench is not loaded in this kernel.'
};

export interface IInsert {
  (code: string): boolean;
}

export class SidebarPanel extends Widget {
  constructor(link: KernelLink, onInsert: IInsert) {
    super();
    this._link = link;
    this._onInsert = onInsert;
    this.addClass('jp-wb-sidebar');
    this.node.append(this._header(), this._notice, this._body);
    this._body.append(
      el('h3', 'jp-wb-sidebar-heading', 'Servers'),
      this._servers,
      this._served,
      this._toolsHeading,
      this._search,
      this._message,
      this._hits
    );
    this._search.type = 'search';
    this._search.className = 'jp-wb-sidebar-search jp-mod-styled';
    this._search.setAttribute('aria-label', 'Search the connected tools');
    this._search.addEventListener('input', () => this._schedule());
    link.statusChanged.connect(this._render, this);
    link.replied.connect(this._onReply, this);
    this._render();
  }

  /** The notebook's name, shown under the title. */
  setNotebookName(name: string): void {
    this._where.textContent = name;
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._link.statusChanged.disconnect(this._render, this);
    this._link.replied.disconnect(this._onReply, this);
    super.dispose();
  }

  private _header(): HTMLElement {
    const header = el('div', 'jp-wb-sidebar-header');
    const refresh = el('button', 'jp-wb-sidebar-refresh jp-mod-styled', 'Refresh');
    refresh.title = 'Ask the kernel for its servers again';
    refresh.addEventListener('click', () => this._link.refresh());
    const title = el('div', 'jp-wb-sidebar-titles');
    title.append(el('h2', 'jp-wb-sidebar-title', 'MCP'), this._where);
    header.append(title, refresh);
    return header;
  }

  private _render(): void {
    const status = this._link.status;
    this.node.dataset.status = status;
    this._notice.replaceChildren();
    if (status !== 'ready') {
      this._notice.append(el('p', 'jp-wb-sidebar-notice-text', NOTICES[status]));
      if (status === 'missing') {
        this._notice.append(this._loadButton());
      }
      this._notice.hidden = false;
      this._body.hidden = true;
      this._shown = '';
      return;
    }
    this._notice.hidden = true;
    this._body.hidden = false;
    const state = this._link.state;
    if (state) {
      this._drawState(state);
    }
  }

  private _loadButton(): HTMLElement {
    const button = el('button', 'jp-wb-sidebar-load jp-mod-styled jp-mod-accept');
    button.textContent = 'Load the workbench (%load_ext workbench)';
    const failure = el('p', 'jp-wb-sidebar-error');
    button.addEventListener('click', async () => {
      button.disabled = true;
      failure.textContent = '';
      const problem = await this._link.loadExtension();
      if (problem) {
        failure.textContent = problem;
        button.disabled = false;
      }
    });
    const box = el('div', 'jp-wb-sidebar-load-box');
    box.append(button, failure);
    return box;
  }

  private _onReply(_: KernelLink, reply: Reply): void {
    switch (reply.type) {
      case 'state':
        this._render();
        break;
      case 'results':
        if (reply.seq === this._searchSeq) {
          this._drawResults(reply);
        }
        break;
      case 'template':
        if (reply.seq === this._templateSeq) {
          this._templateSeq = -1;
          if (!this._onInsert(reply.code)) {
            this._say('Open a notebook to insert the cell into.', true);
          }
        }
        break;
      case 'error':
        this._say(reply.message, true);
        break;
    }
  }

  private _drawState(state: IState): void {
    this._servers.replaceChildren(...state.servers.map(row => this._server(row)));
    if (state.servers.length === 0) {
      this._servers.append(
        el('li', 'jp-wb-sidebar-empty', 'No server connected. Try %mcp connect demo.')
      );
    }
    this._drawServed(state.served);
    this._toolsHeading.textContent = `Tools (${state.tools})`;
    this._search.placeholder = `Search ${state.tools} tools`;
    // Same tools, same answer: search again only when what is connected changed.
    const shown = JSON.stringify([state.servers, state.tools]);
    if (shown !== this._shown) {
      this._shown = shown;
      this._searchNow();
    }
  }

  private _server(row: IServerRow): HTMLElement {
    const item = el('li', 'jp-wb-sidebar-server');
    item.dataset.status = row.status;
    item.dataset.name = row.name;
    const dot = el('span', `jp-wb-sidebar-dot jp-wb-status-${row.status}`);
    dot.title = row.status;
    const name = el('span', 'jp-wb-sidebar-server-name', row.name);
    const icon = iconNode(row.icon);
    if (icon) {
      name.prepend(icon);
    }
    const tools = `${row.tools} tool${row.tools === 1 ? '' : 's'}`;
    const meta = el('span', 'jp-wb-sidebar-meta', `${row.status} · ${tools} · ${row.transport}`);
    const top = el('div', 'jp-wb-sidebar-server-line');
    top.append(dot, name, meta);
    item.append(top);
    if (row.error) {
      item.append(el('div', 'jp-wb-sidebar-error', row.error));
    }
    return item;
  }

  private _drawServed(served: IServed | null): void {
    this._served.replaceChildren();
    this._served.hidden = served === null;
    if (!served) {
      return;
    }
    const what = served.server === 'notebook' ? 'notebook tools' : `tools of ${served.server}`;
    const clients = `${served.clients} client${served.clients === 1 ? '' : 's'}`;
    const auth = served.auth ? `token ${served.auth}` : 'no auth';
    this._served.append(
      el('h3', 'jp-wb-sidebar-heading', 'Serving'),
      el('code', 'jp-wb-sidebar-url', served.url),
      el('div', 'jp-wb-sidebar-meta', `${served.tools} ${what} · ${clients} · ${auth}`)
    );
  }

  private _schedule(): void {
    window.clearTimeout(this._timer);
    this._timer = window.setTimeout(() => this._searchNow(), DEBOUNCE_MS);
  }

  private _searchNow(): void {
    this._searchSeq = this._link.request({
      type: 'search',
      query: this._search.value,
      limit: LIMIT
    });
  }

  private _drawResults(results: IResults): void {
    this._message.replaceChildren();
    this._hits.dataset.query = results.query; // what the list answers (tests wait on it)
    this._hits.replaceChildren(...results.hits.map(hit => this._hit(hit)));
    if (results.hits.length === 0) {
      this._say(results.query.trim() ? 'No tool matches.' : 'No tools yet.', false);
    } else if (!results.query.trim() && results.total > results.hits.length) {
      this._say(`The first ${results.hits.length} of ${results.total}: type to search.`, false);
    }
    if (results.suggestions.length > 0) {
      this._say(`Did you mean: ${results.suggestions.join(', ')}?`, false);
    }
  }

  private _hit(hit: IHit): HTMLElement {
    const item = el('li', 'jp-wb-sidebar-hit');
    item.dataset.id = hit.id;
    const call = el('button', 'jp-wb-sidebar-hit-call');
    call.title = `Insert a %mcp call cell for ${hit.id} below the active cell`;
    const id = el('span', 'jp-wb-sidebar-hit-id', hit.id);
    const icon = iconNode(hit.icon);
    if (icon) {
      id.prepend(icon);
    }
    call.append(id);
    if (hit.destructive) {
      call.append(el('span', 'jp-wb-sidebar-badge jp-wb-mod-destructive', 'destructive'));
    }
    if (hit.summary) {
      call.append(el('span', 'jp-wb-sidebar-hit-summary', hit.summary));
    }
    call.addEventListener('click', () => this._ask(hit.id, 'call'));
    const browse = el('button', 'jp-wb-sidebar-hit-browse', 'Browse');
    browse.title = `Insert a cell that opens the tool browser on ${hit.id}`;
    browse.addEventListener('click', () => this._ask(hit.id, 'browse'));
    item.append(call, browse);
    return item;
  }

  private _ask(id: string, mode: 'call' | 'browse'): void {
    this._templateSeq = this._link.request({ type: 'template', id, mode });
  }

  private _say(text: string, error: boolean): void {
    this._message.append(el('p', error ? 'jp-wb-sidebar-error' : 'jp-wb-sidebar-note', text));
  }

  private _link: KernelLink;
  private _onInsert: IInsert;
  private _where = el('div', 'jp-wb-sidebar-where');
  private _notice = el('div', 'jp-wb-sidebar-notice');
  private _body = el('div', 'jp-wb-sidebar-body');
  private _servers = el('ul', 'jp-wb-sidebar-servers');
  private _served = el('div', 'jp-wb-sidebar-served');
  private _toolsHeading = el('h3', 'jp-wb-sidebar-heading', 'Tools');
  private _search = el('input');
  private _message = el('div', 'jp-wb-sidebar-message');
  private _hits = el('ul', 'jp-wb-sidebar-hits');
  private _shown = '';
  private _timer = 0;
  private _searchSeq = -1;
  private _templateSeq = -1;
}
