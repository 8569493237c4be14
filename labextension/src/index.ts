/**
 * The workbench's JupyterLab / Notebook 7 plugins: the MCP sidebar and the tool browser's
 * saved snapshot. The renderers of the workbench's JSON mime types live in `mime.ts` (a mime
 * extension, so they also draw outputs in untrusted notebooks and without a kernel).
 */
import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { sidebarPlugins } from './sidebar';
import { snapshotPlugins } from './snapshot';
import { stoppedPlugins } from './stopped';

const plugins: JupyterFrontEndPlugin<any>[] = [
  ...sidebarPlugins,
  ...snapshotPlugins,
  ...stoppedPlugins
];

export default plugins;
