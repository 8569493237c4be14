/**
 * Renderers for the workbench's JSON mime types, drawn from the saved JSON alone: a notebook
 * re-opened without a kernel, trusted or not, shows every call as it looked when it ran.
 *
 * Each is `safe` (it builds DOM with textContent only, so it draws in untrusted notebooks)
 * and ranks 20, before text/html (50), so JupyterLab and Notebook 7 prefer it; a widget view
 * (rank 0 in JupyterLab) still wins where an output has one.
 */
import { IRenderMime } from '@jupyterlab/rendermime-interfaces';

import { SERVERS_MIME, TOOL_MIME, renderServers, renderToolCard } from './render/catalog';
import { OBSERVATION_MIME, renderWorkbenchDoc } from './render/observation';
import { PROGRESS_MIME, renderProgress } from './render/progress';
import { TABLE_MIME, renderTable } from './render/table';
import { Draw, DocRenderer } from './render/widget';

export const RANK = 20;

function extension(id: string, mimeType: string, draw: Draw): IRenderMime.IExtension {
  return {
    id: `mcp-workbench:${id}`,

    rendererFactory: {
      safe: true,
      mimeTypes: [mimeType],
      defaultRank: RANK,
      createRenderer: () => new DocRenderer(mimeType, draw)
    },
    rank: RANK,
    dataType: 'json'
  };
}

const extensions: IRenderMime.IExtension[] = [
  extension('observation-renderer', OBSERVATION_MIME, renderWorkbenchDoc),
  extension('tool-renderer', TOOL_MIME, renderToolCard),
  extension('servers-renderer', SERVERS_MIME, renderServers),
  extension('progress-renderer', PROGRESS_MIME, renderProgress),
  extension('table-renderer', TABLE_MIME, renderTable)
];

export default extensions;
