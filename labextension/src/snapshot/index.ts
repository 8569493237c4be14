/**
 * The tool browser's saved snapshot: one renderer factory for `BROWSER_MIME`, on the global
 * rendermime (which every notebook's clones), whose renderers find their notebook panel
 * through the notebook tracker: its rendermime (where ipywidgets installs its manager) for the
 * live widget, its kernel to know whether the widget can be there.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';

import { BROWSER_MIME } from './draw';
import { BrowserRenderer, IHost, RANK, kernelReady } from './renderer';

const WIDGET_COMM_TARGET = 'jupyter.widget';

/** The renderers of one notebook, and the kernel last asked about them. */
function hostOf(panel: NotebookPanel): IHost {
  const host: IHost = {
    rendermime: panel.content.rendermime,
    sessionContext: panel.sessionContext,
    renderers: new Set()
  };
  let asked = '';
  const retry = async () => {
    const kernel = panel.sessionContext.session?.kernel;
    if (!kernel || kernel.id === asked || !kernelReady(host)) {
      return;
    }
    asked = kernel.id;
    const waiting = [...host.renderers].filter(renderer => renderer.showing !== 'live');
    if (!waiting.length) {
      return;
    }
    try {
      const reply = await kernel.requestCommInfo({ target_name: WIDGET_COMM_TARGET });
      const content = reply.content;
      const open = new Set(content.status === 'ok' ? Object.keys(content.comms) : []);
      for (const renderer of waiting) {
        renderer.retryLive(open);
      }
    } catch (error) {
      console.warn('workbench: cannot ask the kernel for its widgets', error);
    }
  };
  panel.sessionContext.statusChanged.connect((_, status) => {
    if (status === 'idle') {
      void retry();
    }
  });
  return host;
}

function activate(
  _app: JupyterFrontEnd,
  rendermime: IRenderMimeRegistry,
  tracker: INotebookTracker | null
): void {
  const hosts = new WeakMap<NotebookPanel, IHost>();
  const findHost = (widget: Widget): IHost | null => {
    if (!tracker) {
      return null;
    }
    for (let node: Widget | null = widget; node; node = node.parent) {
      if (tracker.has(node)) {
        const panel = node as NotebookPanel;
        let host = hosts.get(panel);
        if (!host) {
          host = hostOf(panel);
          hosts.set(panel, host);
        }
        return host;
      }
    }
    return null;
  };
  const factory: IRenderMime.IRendererFactory = {
    safe: true,
    mimeTypes: [BROWSER_MIME],
    defaultRank: RANK,
    createRenderer: () => new BrowserRenderer(findHost)
  };
  rendermime.addFactory(factory, RANK);
  // A notebook opened before this plugin ran has a rendermime cloned without it.
  tracker?.widgetAdded.connect((_, panel) => {
    if (!panel.content.rendermime.getFactory(BROWSER_MIME)) {
      panel.content.rendermime.addFactory(factory, RANK);
    }
  });
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'mcp-workbench:browser-snapshot',
  description: "The tool browser's output: its live widget, or its saved snapshot.",
  autoStart: true,
  requires: [IRenderMimeRegistry],
  optional: [INotebookTracker],
  activate
};

/** The tool browser snapshot's plugins. */
export const snapshotPlugins: JupyterFrontEndPlugin<any>[] = [plugin];
