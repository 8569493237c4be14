/**
 * MCP Apps in the notebook: the renderer of `application/vnd.workbench.app+json` (rank 10,
 * before the Observation's 20, so an output holding both draws the Observation with its App
 * under it). A plugin, not a mime extension, because an App talks to its notebook's kernel:
 * a renderer finds it through the notebook panel whose node holds the output.
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { IThemeManager } from '@jupyterlab/apputils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { Kernel } from '@jupyterlab/services';

import { AppsLinks } from './link';
import { AppRenderer } from './renderer';
import { APP_MIME } from './types';

export const APP_RANK = 10;

const apps: JupyterFrontEndPlugin<void> = {
  id: 'mcp-workbench:apps',
  description: 'MCP Apps: tool UIs drawn under their calls, in a sandboxed frame.',
  autoStart: true,
  requires: [IRenderMimeRegistry, INotebookTracker],
  optional: [IThemeManager],
  activate: (
    _: JupyterFrontEnd,
    rendermime: IRenderMimeRegistry,
    tracker: INotebookTracker,
    themes: IThemeManager | null
  ): void => {
    const links = new AppsLinks();
    const live = new Set<AppRenderer>();
    const kernelFor = (node: HTMLElement): Kernel.IKernelConnection | null => {
      const panel = tracker.find(widget => widget.node.contains(node));
      return panel?.sessionContext.session?.kernel ?? null;
    };
    rendermime.addFactory(
      {
        // safe: the renderer itself keeps an untrusted App from running until a click
        safe: true,
        mimeTypes: [APP_MIME],
        defaultRank: APP_RANK,
        createRenderer: () => {
          const renderer = new AppRenderer({ links, kernelFor });
          live.add(renderer);
          renderer.disposed.connect(() => live.delete(renderer));
          return renderer;
        }
      },
      APP_RANK
    );
    themes?.themeChanged.connect(() => {
      // the body's theme attributes change after the signal: read them on the next frame
      requestAnimationFrame(() => live.forEach(renderer => renderer.themeChanged()));
    });
  }
};

export const appsPlugins: JupyterFrontEndPlugin<any>[] = [apps];
