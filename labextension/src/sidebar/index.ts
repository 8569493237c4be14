/**
 * The MCP sidebar (JupyterLab 4 and Notebook 7): a left-area panel bound to the active
 * notebook's kernel through the `workbench.sidebar` comm (kernel side: workbench/lab/).
 */
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { INotebookTracker, NotebookActions, NotebookPanel } from '@jupyterlab/notebook';

import { mcpIcon } from './icon';
import { KernelLink } from './link';
import { SidebarPanel } from './panel';

export const PANEL_ID = 'jp-wb-sidebar';
export const OPEN_COMMAND = 'workbench:open-mcp-panel';

/** Put `code` in a new code cell below the active one and make it the active cell. */
export function insertBelow(panel: NotebookPanel | null, code: string): boolean {
  if (!panel) {
    return false;
  }
  const notebook = panel.content;
  NotebookActions.insertBelow(notebook);
  if (notebook.activeCell?.model.type !== 'code') {
    NotebookActions.changeCellType(notebook, 'code');
  }
  const cell = notebook.activeCell;
  if (!cell) {
    return false;
  }
  cell.model.sharedModel.setSource(code);
  notebook.mode = 'command';
  void notebook.scrollToItem(notebook.activeCellIndex);
  return true;
}

const sidebar: JupyterFrontEndPlugin<void> = {
  id: 'mcp-workbench:sidebar',
  description: 'The MCP panel: the kernel’s servers, a search over its tools, call cells.',
  autoStart: true,
  requires: [INotebookTracker],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    palette: ICommandPalette | null
  ): void => {
    const link = new KernelLink();
    const panel = new SidebarPanel(link, code => insertBelow(tracker.currentWidget, code));
    panel.id = PANEL_ID;
    panel.title.icon = mcpIcon;
    panel.title.caption = 'MCP servers and tools';
    app.shell.add(panel, 'left', { rank: 650 });

    const follow = (): void => {
      const current = tracker.currentWidget;
      link.bind(current ? current.sessionContext : null);
      panel.setNotebookName(current ? current.title.label : '');
    };
    tracker.currentChanged.connect(follow);
    tracker.widgetUpdated.connect(follow);
    follow();

    app.commands.addCommand(OPEN_COMMAND, {
      label: 'Open the MCP panel',
      icon: mcpIcon,
      execute: () => app.shell.activateById(PANEL_ID)
    });
    palette?.addItem({ command: OPEN_COMMAND, category: 'MCP' });
  }
};

export const sidebarPlugins: JupyterFrontEndPlugin<any>[] = [sidebar];
