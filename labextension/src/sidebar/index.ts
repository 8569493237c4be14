import { JupyterFrontEndPlugin } from '@jupyterlab/application';

/** The MCP sidebar's plugins (filled in by the sidebar's own modules). */
export const sidebarPlugins: JupyterFrontEndPlugin<any>[] = [];
