/**
 * The App output: the call's Observation drawn as the Observation renderer draws it, and
 * the App under it, live through the notebook's kernel (the `workbench.apps` comm) or,
 * saved and re-opened without one, drawn from its saved HTML with calls answered by an
 * error. In an untrusted output no App HTML runs until the person clicks "Run this app".
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Kernel } from '@jupyterlab/services';
import { Message } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

import { el, fallback, note, toJson } from '../render/dom';
import { OBSERVATION_MIME, renderWorkbenchDoc } from '../render/observation';
import { MAX_INLINE_HEIGHT, hostContext } from './context';
import { confirmLink } from './openlink';
import type { AppFrame, DisplayMode, IFrameHost } from './frame';
import { AppsLink, AppsLinks, LinkClosed } from './link';
import { APP_MIME, AppReply, IAppDoc, IAppPage, IReloadPush, JSONObject, isAppDoc } from './types';

/** What the plugin gives each renderer: the kernel of the notebook holding a node. */
export interface IAppServices {
  links: AppsLinks;
  kernelFor(node: HTMLElement): Kernel.IKernelConnection | null;
}

const NOT_LIVE = 'Live calls are off: ';
/** Notes shown under an App, newest last (the history keeps them all). */
const MAX_NOTES = 20;

export class AppRenderer extends Widget implements IRenderMime.IRenderer {
  constructor(private readonly services: IAppServices) {
    super();
    this.addClass('jp-wb-rendered');
    this.addClass('jp-wb-app-output');
    this.node.dataset.mimeType = APP_MIME;
  }

  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this._stop();
    const doc = model.data[APP_MIME];
    const observation = model.data[OBSERVATION_MIME];
    const parts: HTMLElement[] = [];
    if (observation !== undefined) {
      parts.push(renderWorkbenchDoc(observation));
    }
    if (!isAppDoc(doc)) {
      parts.push(fallback('App', doc));
      this.node.replaceChildren(...parts);
      return Promise.resolve();
    }
    this._doc = doc;
    this._page = doc;
    this._allowed = model.trusted !== false;
    parts.push(this._drawApp(doc));
    this.node.replaceChildren(...parts);
    if (this.isAttached) {
      this._start();
    }
    return Promise.resolve();
  }

  protected onAfterAttach(msg: Message): void {
    super.onAfterAttach(msg);
    this._start();
  }

  protected onBeforeDetach(msg: Message): void {
    this._setMode('inline');
    super.onBeforeDetach(msg);
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this._stop();
    this._follow(null);
    super.dispose();
  }

  /** JupyterLab's theme changed: tell the App. */
  themeChanged(): void {
    this._frame?.themeChanged();
  }

  private _drawApp(doc: IAppDoc): HTMLElement {
    const box = el('div', `jp-wb-app${doc.prefers_border === false ? '' : ' jp-wb-app-bordered'}`);
    const bar = el('div', 'jp-wb-app-bar');
    bar.appendChild(el('span', 'jp-wb-muted', 'App '));
    bar.appendChild(el('code', 'jp-wb-uri', doc.uri));
    const full = el('button', 'jp-wb-app-button jp-wb-app-fullscreen-button', 'Full screen');
    full.type = 'button';
    full.addEventListener('click', () => this._setMode(this._mode === 'inline' ? 'fullscreen' : 'inline'));
    bar.appendChild(full);
    box.appendChild(bar);
    this._status = note('', 'jp-wb-app-status');
    this._status.hidden = true;
    box.appendChild(this._status);
    this._holder = el('div', 'jp-wb-app-holder');
    this._fullButton = full;
    box.appendChild(this._holder);
    this._notes = el('div', 'jp-wb-app-notes');
    box.appendChild(this._notes);
    if (!this._allowed) {
      this._holder.appendChild(this._gate());
    }
    this._box = box;
    return box;
  }

  /** The untrusted output's gate: the App's HTML runs only after this click. */
  private _gate(): HTMLElement {
    const gate = el('div', 'jp-wb-app-gate');
    gate.appendChild(
      note('This notebook is not trusted, so this App’s HTML has not run. It runs sandboxed, without access to this page.')
    );
    const run = el('button', 'jp-mod-styled jp-mod-accept jp-wb-app-run', 'Run this app');
    run.type = 'button';
    run.addEventListener('click', () => {
      this._allowed = true;
      gate.remove();
      this._start();
    });
    gate.appendChild(run);
    return gate;
  }

  private _start(): void {
    const doc = this._doc;
    if (!doc || !this._allowed || this._running || !this.isAttached || !this._holder) {
      return;
    }
    const kernel = doc.live === false ? null : this.services.kernelFor(this.node);
    this._follow(kernel ? this.services.links.get(kernel) : null);
    if (doc.live === false) {
      this._setOffline('this output was saved where no kernel could answer.');
    } else if (!kernel) {
      this._setOffline('no kernel is running for this notebook.');
    } else {
      this._setOffline(null);
      this._link?.connect();
    }
    this._load(this._page ?? doc);
  }

  private _load(page: IAppPage): void {
    const doc = this._doc;
    if (!doc || !this._holder) {
      return;
    }
    const holder = this._holder;
    this._frame?.dispose();
    this._frame = null;
    this._running = true;
    const generation = ++this._generation;
    // the host library loads with the first App, not with JupyterLab
    import('./frame')
      .then(({ AppFrame }) => {
        if (generation !== this._generation || this.isDisposed) {
          return;
        }
        const result = (doc.result ?? {}) as unknown as JSONObject;
        const frame = new AppFrame(page, doc.input ?? {}, result, this._host);
        this._frame = frame;
        this._setHeight(150);
        return frame.mount(holder);
      })
      .catch(error => {
        console.warn('workbench: the App could not start', error);
        this._say(`The App could not start: ${String(error)}`);
      });
  }

  private _stop(): void {
    this._setMode('inline');
    this._generation++;
    this._running = false;
    this._frame?.dispose();
    this._frame = null;
  }

  /** Follow another kernel's link (null: none). */
  private _follow(link: AppsLink | null): void {
    if (link === this._link) {
      return;
    }
    this._link?.reloaded.disconnect(this._onReload, this);
    this._link?.closed.disconnect(this._onClosed, this);
    this._link = link;
    link?.reloaded.connect(this._onReload, this);
    link?.closed.connect(this._onClosed, this);
  }

  private _onClosed(_: AppsLink, why: string): void {
    this._setOffline(why);
  }

  /** The App's HTML changed in the kernel: load the new page with the same input and result. */
  private _onReload(_: AppsLink, push: IReloadPush): void {
    const doc = this._doc;
    if (!doc || push.server !== doc.server || push.uri !== doc.uri) {
      return;
    }
    if (push.html_sha256 && push.html_sha256 === this._page?.html_sha256) {
      return;
    }
    void this._ask({ type: 'html', server: doc.server, uri: doc.uri })
      .then(reply => {
        if (reply.type === 'html' && typeof reply.html === 'string' && this._allowed && !this.isDisposed) {
          this._page = reply;
          if (this._running) {
            this._load(reply);
          }
        }
      })
      .catch(error => console.warn('workbench: the App could not reload', error));
  }

  /** The notebook's kernel now (it may have started, or changed, since the App drew). */
  private _currentLink(): AppsLink | null {
    if (this._doc?.live === false) {
      return null;
    }
    const kernel = this.isAttached ? this.services.kernelFor(this.node) : null;
    this._follow(kernel ? this.services.links.get(kernel) : null);
    return this._link;
  }

  private async _ask(ask: Parameters<AppsLink['request']>[0]): Promise<AppReply> {
    const link = this._currentLink();
    if (!link) {
      throw new Error(NOT_LIVE + (this._offline ?? 'no kernel is running for this notebook.'));
    }
    try {
      const reply = await link.request(ask);
      this._setOffline(null);
      return reply;
    } catch (error) {
      if (error instanceof LinkClosed) {
        throw new Error(NOT_LIVE + error.message);
      }
      throw error;
    }
  }

  private _host: IFrameHost = {
    callTool: async (name, args) => {
      const doc = this._doc as IAppDoc;
      const reply = await this._ask({
        type: 'call',
        server: doc.server, // an App calls only its own server's tools
        tool: name,
        arguments: args,
        uri: doc.uri,
        call_id: doc.call_id
      });
      if (reply.type !== 'result') {
        throw new Error(`unexpected reply ${reply.type}`);
      }
      return reply.result as unknown as JSONObject;
    },
    readResource: async uri => {
      const doc = this._doc as IAppDoc;
      const reply = await this._ask({ type: 'read', server: doc.server, uri });
      if (reply.type !== 'resource') {
        throw new Error(`unexpected reply ${reply.type}`);
      }
      return { contents: reply.contents };
    },
    openLink: url => {
      const doc = this._doc as IAppDoc;
      return confirmLink(url, `${doc.uri} (server ${doc.server})`);
    },
    note: async (kind, payload) => {
      const doc = this._doc as IAppDoc;
      const shown = this._showNote(kind, payload);
      try {
        await this._ask({ type: 'note', call_id: doc.call_id, kind, payload });
      } catch (error) {
        shown.appendChild(el('span', 'jp-wb-muted', ` (not kept: ${String((error as Error).message ?? error)})`));
      }
    },
    setDisplayMode: mode => this._setMode(mode),
    displayMode: () => this._mode,
    resized: height => {
      if (this._mode === 'inline') {
        this._setHeight(height);
      }
    },
    stopped: why => {
      this._frame = null;
      this._running = false;
      if (why === 'moved') {
        this._start(); // the output was drawn again elsewhere: a fresh frame and bridge
      } else {
        this._say('The App left its page, so it was stopped.');
      }
    }
  };

  private _showNote(kind: 'message' | 'model_context', payload: JSONObject): HTMLElement {
    const row = el('div', 'jp-wb-app-note');
    row.appendChild(el('span', 'jp-wb-muted', kind === 'message' ? 'App message: ' : 'App context: '));
    row.appendChild(el('span', 'jp-wb-app-note-text', noteText(payload)));
    const notes = this._notes;
    if (notes) {
      notes.appendChild(row);
      while (notes.childElementCount > MAX_NOTES) {
        notes.firstElementChild?.remove(); // an App cannot fill the notebook with notes
      }
    }
    return row;
  }

  private _setOffline(why: string | null): void {
    this._offline = why;
    if (this._status) {
      this._status.textContent = why === null ? '' : NOT_LIVE + why;
      this._status.hidden = why === null;
    }
  }

  private _say(text: string): void {
    if (this._status) {
      this._status.textContent = text;
      this._status.hidden = false;
    }
  }

  private _setHeight(height: number): void {
    const frame = this._frame?.iframe;
    if (frame) {
      frame.style.height = `${Math.max(40, Math.min(Math.ceil(height), MAX_INLINE_HEIGHT))}px`;
    }
  }

  private _setMode(mode: DisplayMode): DisplayMode {
    if (mode === this._mode || !this._box) {
      return this._mode;
    }
    this._mode = mode;
    const full = mode === 'fullscreen';
    this._box.classList.toggle('jp-wb-app-fullscreen', full);
    if (this._fullButton) {
      this._fullButton.textContent = full ? 'Exit full screen (Esc)' : 'Full screen';
    }
    if (full) {
      document.addEventListener('keydown', this._onKey, true);
    } else {
      document.removeEventListener('keydown', this._onKey, true);
    }
    const width = this._holder?.clientWidth ?? 0;
    const { displayMode, containerDimensions } = hostContext(mode, width);
    this._frame?.update({ displayMode, containerDimensions });
    return mode;
  }

  private _onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this._setMode('inline');
    }
  };

  private _doc: IAppDoc | null = null;
  private _page: IAppPage | null = null;
  private _allowed = true;
  private _frame: AppFrame | null = null;
  private _running = false;
  private _generation = 0;
  private _link: AppsLink | null = null;
  private _offline: string | null = null;
  private _mode: DisplayMode = 'inline';
  private _box: HTMLElement | null = null;
  private _holder: HTMLElement | null = null;
  private _status: HTMLElement | null = null;
  private _notes: HTMLElement | null = null;
  private _fullButton: HTMLButtonElement | null = null;
}

/** A note's words as plain text: its text blocks, then its structured content as JSON. */
export function noteText(payload: JSONObject): string {
  const parts: string[] = [];
  const content = Array.isArray(payload.content) ? payload.content : [payload.content];
  for (const block of content) {
    if (block && typeof block === 'object' && typeof (block as JSONObject).text === 'string') {
      parts.push((block as JSONObject).text as string);
    } else if (block !== undefined && block !== null) {
      parts.push(`[${String((block as JSONObject).type ?? 'content')}]`);
    }
  }
  if (payload.structuredContent !== undefined) {
    parts.push(toJson(payload.structuredContent));
  }
  return parts.join(' ').slice(0, 4000);
}
