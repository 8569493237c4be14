/**
 * The workbench's JupyterLab / Notebook 7 plugins: the MCP sidebar, the tool browser's
 * saved snapshot, untouched notebooks kept unmodified when their kernel starts, and progress
 * lines that say so when their kernel restarts mid-call. The renderers of the workbench's
 * JSON mime types live in `mime.ts` (a mime extension, so they also draw outputs in
 * untrusted notebooks and without a kernel).
 */
import { JupyterFrontEndPlugin } from '@jupyterlab/application';

import { appsPlugins } from './apps';
import { cleanPlugins } from './clean';
import { sidebarPlugins } from './sidebar';
import { snapshotPlugins } from './snapshot';
import { stoppedPlugins } from './stopped';

const plugins: JupyterFrontEndPlugin<any>[] = [
  ...sidebarPlugins,
  ...snapshotPlugins,
  ...cleanPlugins,
  ...stoppedPlugins,
  ...appsPlugins
];

export default plugins;
