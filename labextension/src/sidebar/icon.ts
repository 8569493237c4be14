/** The MCP panel's icon: three linked nodes, drawn in the theme's icon colour. */
import { LabIcon } from '@jupyterlab/ui-components';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">
  <g class="jp-icon3" fill="#616161">
    <path d="M6 4a3 3 0 1 1-.001 6.001A3 3 0 0 1 6 4zm12 0a3 3 0 1 1-.001 6.001A3 3 0 0 1 18 4zM12 14a3 3 0 1 1-.001 6.001A3 3 0 0 1 12 14z"/>
    <path d="M8.5 7.25h7v1.5h-7zM7.1 9.4l1.3-.75 3.1 5.4-1.3.75zm9.8 0-1.3-.75-3.1 5.4 1.3.75z"/>
  </g>
</svg>`;

export const mcpIcon = new LabIcon({ name: 'mcp-workbench:mcp', svgstr: SVG });
