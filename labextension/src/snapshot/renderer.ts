/**
 * The tool browser's output: the live widget while it lives, its saved snapshot otherwise.
 *
 * The kernel displays one bundle holding the widget's view
 * (`application/vnd.jupyter.widget-view+json`) and a snapshot (`BROWSER_MIME`), and updates
 * it in place as the browser changes. This renderer ranks before the widget view's (-10), so
 * JupyterLab and Notebook 7 pick it for that bundle, trusted or not (it is safe). It then:
 * - in a trusted output of a notebook whose kernel is up, asks the notebook's own rendermime
 *   for the widget renderer, renders it hidden, and shows it as soon as its view appears
 *   (the snapshot shows only if that takes over LIVE_GRACE_MS, so a live cell never flashes);
 * - otherwise (no kernel yet, a kernel without that widget, untrusted, outside a notebook)
 *   shows the snapshot, and never the widget renderer's "model not found" text;
 * - on an update of the same output (same widget), keeps the live widget untouched (focus and
 *   typing in its search box are never disturbed) and redraws the snapshot only if it shows.
 * When the notebook's kernel becomes ready, a snapshot whose widget that kernel still has
 * (its comm is open: a page reloaded while the kernel ran) turns live again.
 */
import { ISessionContext } from '@jupyterlab/apputils';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Panel, Widget } from '@lumino/widgets';

import { el, fallback } from '../render/dom';
import { BROWSER_MIME, renderBrowserSnapshot } from './draw';

export const WIDGET_MIME = 'application/vnd.jupyter.widget-view+json';
/** Before ipywidgets' widget view (-10): this renderer decides which of the two shows. */
export const RANK = -20;
/** How long a live widget may take to appear before the snapshot shows meanwhile. */
export const LIVE_GRACE_MS = 1000;

/** What a renderer inside a notebook reaches: that notebook's rendermime and kernel. */
export interface IHost {
  rendermime: IRenderMimeRegistry;
  sessionContext: ISessionContext;
  renderers: Set<BrowserRenderer>;
}

export type FindHost = (widget: Widget) => IHost | null;

/** The widget model id of a bundle's widget view, '' when there is none. */
function widgetModelId(model: IRenderMime.IMimeModel): string {
  const view = model.data[WIDGET_MIME] as { model_id?: unknown } | undefined;
  return view && typeof view.model_id === 'string' ? view.model_id : '';
}

/** Whether the host's kernel is up (ipywidgets installs its manager once it is). */
export function kernelReady(host: IHost): boolean {
  const kernel = host.sessionContext.session?.kernel;
  return host.sessionContext.isReady && !!kernel && kernel.connectionStatus === 'connected';
}

export class BrowserRenderer extends Panel implements IRenderMime.IRenderer {
  constructor(private readonly findHost: FindHost) {
    super();
    this.addClass('jp-wb-browser-output');
    this.snapshot = new Widget({ node: el('div', 'jp-wb-snapshot-holder') });
    this.snapshot.hide();
    this.addWidget(this.snapshot);
  }

  /** What shows: nothing yet, the live widget, or the snapshot. */
  get showing(): 'none' | 'live' | 'snapshot' {
    return this._showing;
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    this.model = model;
    if (this.host === undefined) {
      await Promise.resolve(); // the output area sets our parent right after this call
      this.host = this.findHost(this);
      this.host?.renderers.add(this);
    }
    const id = widgetModelId(model);
    const host = this.host;
    const canLive = model.trusted && id !== '' && host !== null;
    if (canLive && this.live && id === this.liveId) {
      if (this._showing === 'snapshot') {
        this.drawSnapshot();
      }
      return;
    }
    this.dropLive();
    if (canLive && kernelReady(host)) {
      this.startLive(host, id, model);
    } else {
      this.showSnapshot();
    }
  }

  /** The kernel is ready and has these widget models open: go live if ours is one. */
  retryLive(openModels: Set<string>): void {
    const model = this.model;
    const host = this.host;
    if (this._showing === 'live' || !model || !model.trusted || !host) {
      return;
    }
    const id = widgetModelId(model);
    if (id && openModels.has(id)) {
      this.dropLive();
      this.startLive(host, id, model);
    }
  }

  dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.dropLive();
    this.host?.renderers.delete(this);
    super.dispose();
  }

  private startLive(host: IHost, id: string, model: IRenderMime.IMimeModel): void {
    let live: IRenderMime.IRenderer;
    try {
      live = host.rendermime.createRenderer(WIDGET_MIME);
    } catch {
      this.showSnapshot(); // no widget manager in this front end
      return;
    }
    live.addClass('jp-wb-live');
    live.hide();
    this.insertWidget(0, live);
    this.live = live;
    this.liveId = id;
    this.observer = new MutationObserver(() => this.check());
    this.observer.observe(live.node, { childList: true });
    this.timer = window.setTimeout(() => {
      if (this._showing !== 'live') {
        this.showSnapshot();
      }
    }, LIVE_GRACE_MS);
    const settle = () => this.settle(live);
    live.renderModel(model).then(settle, settle);
  }

  /** Whether the widget renderer holds a view (its texts are bare text nodes). */
  private hasView(): boolean {
    return !!this.live && !this.live.isDisposed && this.live.node.firstElementChild !== null;
  }

  private check(): void {
    if (this.hasView()) {
      this.showLive();
    } else if (this._showing === 'live') {
      this.showSnapshot(); // the widget was closed
    }
  }

  /** The widget renderer finished: live if its view came, else the snapshot (and a
   * renderer that gave up, "model not found", is dropped with its text). */
  private settle(live: IRenderMime.IRenderer): void {
    if (live !== this.live) {
      return;
    }
    if (this.hasView()) {
      this.showLive();
      return;
    }
    if ((live.node.textContent ?? '').includes('Error')) {
      this.dropLive();
    }
    this.showSnapshot();
  }

  private showLive(): void {
    window.clearTimeout(this.timer);
    this.live?.show();
    this.snapshot.hide();
    this._showing = 'live';
  }

  private showSnapshot(): void {
    window.clearTimeout(this.timer);
    this.drawSnapshot();
    this.live?.hide();
    this.snapshot.show();
    this._showing = 'snapshot';
  }

  private drawSnapshot(): void {
    const doc = this.model?.data[BROWSER_MIME];
    if (doc === this.drawn) {
      return;
    }
    this.drawn = doc;
    let drawn: HTMLElement;
    try {
      drawn = renderBrowserSnapshot(doc);
    } catch (error) {
      console.warn('workbench: cannot draw the tool browser snapshot', error);
      drawn = fallback('tool browser snapshot', doc);
    }
    this.snapshot.node.replaceChildren(drawn);
  }

  private dropLive(): void {
    window.clearTimeout(this.timer);
    this.observer?.disconnect();
    this.observer = null;
    if (this.live && !this.live.isDisposed) {
      this.live.dispose();
    }
    this.live = null;
    this.liveId = '';
  }

  private readonly snapshot: Widget;
  private live: IRenderMime.IRenderer | null = null;
  private liveId = '';
  private model: IRenderMime.IMimeModel | null = null;
  private host: IHost | null | undefined = undefined;
  private drawn: unknown = undefined;
  private observer: MutationObserver | null = null;
  private timer = 0;
  private _showing: 'none' | 'live' | 'snapshot' = 'none';
}
